import { assertEquals } from "../../support/assert.ts";
import { diffSummary, lineCount, lineDelta } from "../../../src/tools/edit/line_delta.ts";
import { loadDiff } from "../../../src/text_diff.ts";

Deno.test("lineDelta() counts what a minimal line diff counts, on small cases worked by hand", () => {
  assertEquals(lineDelta("a\nb\nc\n", "a\nB\nc\n"), { added: 1, removed: 1 });
  assertEquals(lineDelta("a\nb\n", "a\nb\nc\n"), { added: 1, removed: 0 });
  assertEquals(lineDelta("", "x\ny"), { added: 2, removed: 0 });
  assertEquals(lineDelta("x\ny\n", ""), { added: 0, removed: 2 });
  // A last line without its newline is another line, as in a diff; CRLF counts as LF.
  assertEquals(lineDelta("a", "a\n"), { added: 1, removed: 1 });
  assertEquals(lineDelta("a\r\nb\r\n", "a\nb\n"), { added: 0, removed: 0 });
  // A moved line: one removed, one added, the rest common.
  assertEquals(lineDelta("1\n2\n3\n4\n", "2\n3\n4\n1\n"), { added: 1, removed: 1 });
  assertEquals([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb")], [0, 1, 1, 2]);
});

Deno.test("lineDelta() agrees with the diff package's diffLines on 2,000 random changes", async () => {
  const diff = await loadDiff();
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
  const text = () => {
    const lines = Array.from({ length: random(12) }, () => ["a", "b", "c", "", "  d"][random(5)]);
    return lines.join("\n") + (random(2) === 0 ? "\n" : "");
  };
  for (let i = 0; i < 2_000; i++) {
    const [before, after] = [text(), text()];
    let added = 0;
    let removed = 0;
    for (const part of diff.diffLines(before, after)) {
      if (part.added) added += part.count ?? 0;
      else if (part.removed) removed += part.count ?? 0;
    }
    assertEquals(lineDelta(before, after), { added, removed }, JSON.stringify([before, after]));
  }
});

Deno.test("lineDelta() counts a big file's small change exactly, and a change of over 4,000 lines whole", () => {
  const numbered = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => `line ${from + i}\n`).join("");
  const big = numbered(50_000);
  assertEquals(lineDelta(big, big.replace("line 25000\n", "changed\n")), { added: 1, removed: 1 });
  // 2,500 lines for 2,500 others in the middle: counted whole (no table of 6 million cells).
  const before = `top\n${numbered(2_500)}bottom\n`;
  const after = `top\n${numbered(2_500, 10_000)}bottom\n`;
  assertEquals(lineDelta(before, after), { added: 2_500, removed: 2_500 });
});

Deno.test("diffSummary() diffs only the changed middle of two texts", () => {
  const fallback = { added: 99, removed: 99 };
  assertEquals(diffSummary("a\nb\nc\nd\n", "a\nB\nB2\nd\n", fallback), { added: 2, removed: 2 });
  assertEquals(diffSummary("a\nb\n", "a\nb\nc\n", fallback), { added: 1, removed: 0 });
  assertEquals(diffSummary("x", "y", fallback), { added: 1, removed: 1 });
  assertEquals(diffSummary("same\n", "same\n", fallback), { added: 0, removed: 0 });
});

Deno.test("diffSummary() falls back when the changed middle is too large to diff", () => {
  const before = `a\n${"line\n".repeat(5000)}b\n`;
  const after = `A\n${"line\n".repeat(5000)}B\n`;
  assertEquals(diffSummary(before, after, { added: 2, removed: 2 }), { added: 2, removed: 2 });
});
