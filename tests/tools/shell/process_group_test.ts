import { assert, assertEquals, assertStrictEquals } from "../../support/assert.ts";
import { runInGroup } from "../../../src/tools/shell/process_group.ts";
import type { OutputSink } from "../../../src/tools/shell/run_contract.ts";
import { processesWith, sleepMarker } from "../../support/processes.ts";

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
  assertEquals(finished, {
    code: 4,
    stopped: null,
    bytes: 4,
    binary: false,
    leftovers: { killed: 0, survivors: [] },
  });
  assertStrictEquals(sink.text, "a\nb\n");
  assertStrictEquals(sink.ends, 1);
});

Deno.test("runInGroup() stops a command at its timeout and says so", async () => {
  const sink = collector();
  const finished = await runInGroup(["bash", "-c", "echo start; sleep 30"], {
    cwd: Deno.cwd(),
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    signal: new AbortController().signal,
    // Long enough for bash to start and print on a busy machine; only the timeout can end `sleep 30`.
    timeoutMs: 3_000,
    sink,
  });
  assertStrictEquals(finished.stopped, "timeout");
  assertStrictEquals(sink.text, "start\n");
});

Deno.test("runInGroup() after a timeout reaps what is left in the session without calling it background work", async () => {
  // Job control gives the background sleep a group of its own: the timeout's group kill misses it, so it is
  // still in the session when the reaper looks, as a slow-dying process is on a busy machine.
  const marker = sleepMarker();
  const finished = await runInGroup(["bash", "-c", `set -m; sleep ${marker} & echo start; sleep 30`], {
    cwd: Deno.cwd(),
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    signal: new AbortController().signal,
    timeoutMs: 3_000,
    sink: collector(),
  });
  assertEquals([finished.stopped, finished.leftovers], ["timeout", { killed: 0, survivors: [] }]);
  assertEquals(await processesWith(marker), []);
});

Deno.test("runInGroup() kills a command whose output passes maxOutputBytes, and says so", async () => {
  const sink = collector();
  const finished = await runInGroup(["bash", "-c", "yes"], {
    cwd: Deno.cwd(),
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    signal: new AbortController().signal,
    timeoutMs: 30_000,
    sink,
    maxOutputBytes: 100_000,
  });
  assertStrictEquals(finished.stopped, "output_cap");
  assert(finished.bytes > 100_000 && sink.text.length === finished.bytes, `${finished.bytes}`);
  assertStrictEquals(sink.ends, 1);
});
