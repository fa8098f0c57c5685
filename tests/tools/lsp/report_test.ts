import { assertEquals } from "../../support/assert.ts";
import { compareErrors, diagnosticLine, MAX_LISTED, outcomeText } from "../../../src/tools/lsp/report.ts";
import type { Diagnostic } from "../../../src/tools/lsp/pull.ts";

const error = (message: string, line = 0, severity = 1): Diagnostic => ({
  line,
  character: 0,
  severity,
  message,
});

Deno.test("compareErrors() counts the same message twice as two errors, and ignores warnings and moved lines", () => {
  const before = [error("a", 1), error("a", 5), error("b", 2), error("w", 3, 2)];
  const after = [error("a", 9), error("c", 4), error("w2", 0, 2)];
  assertEquals(compareErrors(before, after), { introduced: [error("c", 4)], fixed: 2, errors: 2 });
});

Deno.test("outcomeText() lists at most MAX_LISTED new errors and counts the rest", () => {
  const introduced = Array.from({ length: MAX_LISTED + 3 }, (_, i) => error(`e${i}`, i));
  const text = outcomeText({ state: "checked", server: "ts", introduced, fixed: 1, errors: 13 }, "a.ts");
  const lines = text.split("\n");
  assertEquals([lines[1], lines[2], lines.at(-1), lines.length], [
    "Diagnostics (ts): 13 new errors; 1 error fixed:",
    "  a.ts:1:1: e0",
    "  ... and 3 more",
    MAX_LISTED + 3,
  ]);
});

Deno.test("outcomeText() says a clean edit in a few words, and a late server as not ready", () => {
  assertEquals(
    outcomeText({ state: "checked", server: "ts", introduced: [], fixed: 0, errors: 0 }, "a.ts"),
    "\nDiagnostics (ts): no new problems.",
  );
  assertEquals(
    outcomeText({ state: "not_ready", server: "ts", why: "no answer within 3000 ms" }, "a.ts"),
    "\nDiagnostics (ts): not ready (no answer within 3000 ms).",
  );
});

Deno.test("diagnosticLine() keeps a server's message on one line, without control characters", () => {
  const item = {
    line: 2,
    character: 4,
    severity: 1,
    message: "bad\n  \x1b[31mthing\x07",
    code: "2322",
    source: "ts",
  };
  assertEquals(diagnosticLine(item, "src/a.ts"), "src/a.ts:3:5: bad [31mthing [ts 2322]");
});
