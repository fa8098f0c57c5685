import { assertEquals } from "../../support/assert.ts";
import { exitCodeFor } from "../../../src/cli/headless/run.ts";

Deno.test("exitCodeFor() maps each exit reason to the CLI contract's code", () => {
  assertEquals(exitCodeFor("done"), 0);
  assertEquals(exitCodeFor("error"), 1);
  assertEquals(exitCodeFor("cancelled"), 130);
  for (const reason of ["length", "max_turns", "token_budget", "runaway"] as const) {
    assertEquals(exitCodeFor(reason), 3);
  }
});
