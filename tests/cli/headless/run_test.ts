import { assertEquals } from "../../support/assert.ts";
import { exitCodeFor, runHeadless } from "../../../src/cli/headless/run.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { testSession } from "../../support/session.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("exitCodeFor() maps each exit reason to the CLI contract's code", () => {
  assertEquals(exitCodeFor("done"), 0);
  assertEquals(exitCodeFor("error"), 1);
  assertEquals(exitCodeFor("cancelled"), 130);
  for (const reason of ["length", "max_turns", "token_budget", "runaway"] as const) {
    assertEquals(exitCodeFor(reason), 3);
  }
});

Deno.test("runHeadless() prints the answer raw to a pipe, and inert to a terminal (no title, no clipboard)", async () => {
  const answer = "Done.\u001b]0;pwned\u0007\u001b]52;c;Y3VybA==\u0007";
  for (const isTerminal of [false, true]) {
    await using project = await tempProject();
    await using model = await startFakeModel([{ text: answer }]);
    const session = await testSession(project.root, { config: { baseUrl: model.url } });
    let out = "";
    const code = await runHeadless(session, {
      task: "go",
      output: "text",
      stdout: { write: (text) => void (out += text), isTerminal },
      stderr: { write: () => {}, isTerminal: false },
    });
    assertEquals(code, 0);
    assertEquals(out, isTerminal ? "Done.␛]0;pwned␇␛]52;c;Y3VybA==␇\n" : `${answer}\n`);
  }
});
