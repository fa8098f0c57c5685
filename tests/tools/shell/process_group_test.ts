import assert from "node:assert/strict";
import { type OutputSink, runInGroup } from "../../../src/tools/shell/process_group.ts";

function collector(): OutputSink & { text: string; ends: number } {
  return {
    text: "",
    ends: 0,
    push(text) {
      this.text += text;
    },
    end() {
      this.ends++;
    },
  };
}

Deno.test("runInGroup() streams output to the sink and ends it once", async () => {
  const sink = collector();
  const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  const signal = new AbortController().signal;
  const finished = await runInGroup(["bash", "-c", "echo a; echo b >&2; exit 4"], {
    cwd: Deno.cwd(),
    env,
    signal,
    timeoutMs: 10_000,
    sink,
  });
  assert.deepEqual(finished, { code: 4, stopped: null });
  assert.equal(sink.text, "a\nb\n");
  assert.equal(sink.ends, 1);
});

Deno.test("runInGroup() stops a command at its timeout and says so", async () => {
  const sink = collector();
  const finished = await runInGroup(["bash", "-c", "echo start; sleep 30"], {
    cwd: Deno.cwd(),
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    signal: new AbortController().signal,
    timeoutMs: 200,
    sink,
  });
  assert.equal(finished.stopped, "timeout");
  assert.equal(sink.text, "start\n");
});
