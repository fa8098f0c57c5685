import { assert, assertEquals } from "../../support/assert.ts";
import { CommandOutput, LiveTail } from "../../../src/tools/shell/command_output.ts";
import { TAIL_LINES, type ToolUpdate } from "../../../src/tools/tool.ts";

/** A LiveTail on a hand-driven clock, with the tails it reported. */
function tailOnClock() {
  const clock = { now: 0 };
  const sent: string[][] = [];
  const tail = new LiveTail((update) => sent.push(update.tail), () => clock.now);
  return { clock, sent, tail };
}

Deno.test("LiveTail reports at once, then at most once per 100 ms, and only when the tail changed", () => {
  const { clock, sent, tail } = tailOnClock();
  tail.push("a\n");
  clock.now = 10;
  tail.push("b\n");
  tail.push("c\n");
  assertEquals(sent, [["a"]]);
  clock.now = 150;
  tail.push("d\n");
  clock.now = 300;
  tail.push("\n\n");
  tail.end();
  tail.push("e\n");
  assertEquals(sent, [["a"], ["a", "b", "c", "d"]]);
});

Deno.test("LiveTail reports what arrived within the interval once it has passed", async () => {
  const sent: string[][] = [];
  let second!: () => void;
  const arrived = new Promise<void>((resolve) => second = resolve);
  const tail = new LiveTail((update) => {
    sent.push(update.tail);
    if (sent.length === 2) second();
  });
  tail.push("first\n");
  tail.push("second\n");
  await arrived;
  tail.end();
  assertEquals(sent, [["first"], ["first", "second"]]);
});

Deno.test("LiveTail keeps the last lines that are not blank, a \\r-rewritten line as it stands, long lines' ends", () => {
  const { sent, tail } = tailOnClock();
  const many = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n");
  tail.push(`${many}\n\n  \nprogress 10%\rprogress 90%\n${"x".repeat(300)}y`);
  tail.end();
  const last = sent.at(-1)!;
  assertEquals(last.length, TAIL_LINES);
  assertEquals(last.slice(0, 3), ["line 4997", "line 4998", "line 4999"]);
  assertEquals(last[3], "progress 90%");
  assert(last[4].startsWith("…") && last[4].endsWith("xy") && last[4].length === 200, last[4]);
});

Deno.test("CommandOutput shows secrets redacted in the live tail, and nothing after its end", () => {
  const secret = "sk-0123456789abcdef";
  const updates: ToolUpdate[] = [];
  const output = new CommandOutput([secret], (update) => updates.push(update));
  output.push(`key ${secret.slice(0, 6)}`);
  output.push(`${secret.slice(6)} ok\n`);
  // What might begin a secret waits for the next chunk; the rest shows at once.
  assertEquals(updates, [{ tail: ["key "] }]);
  output.end();
  output.push("late\n");
  assert(updates.every((update) => !update.tail.join("\n").includes("sk-0")), JSON.stringify(updates));
  assert(updates.every((update) => !update.tail.join("\n").includes("late")), JSON.stringify(updates));
  assertEquals(output.view.toString(), "key [redacted] ok\nlate\n");
});
