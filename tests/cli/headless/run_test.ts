import { assertEquals } from "../../support/assert.ts";
import { exitCodeFor, resultObject, runHeadless, snakeCaseKeys } from "../../../src/cli/headless/run.ts";
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

Deno.test("resultObject() has the documented fields in snake_case", () => {
  const object = resultObject({
    text: "ok",
    exitReason: "done",
    partial: false,
    turns: 2,
    toolCalls: 1,
    usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12, cachedTokens: 4 },
  });
  assertEquals(object, {
    result: "ok",
    exit_reason: "done",
    partial: false,
    turns: 2,
    tool_calls: 1,
    usage: {
      prompt_tokens: 10,
      completion_tokens: 2,
      total_tokens: 12,
      cached_tokens: 4,
      cache_read_tokens: 4,
      reasoning_tokens: 0,
      cost_usd: null,
    },
  });
});

Deno.test("resultObject() prices the usage when the model's price is known", () => {
  const usage = {
    promptTokens: 2_000_000,
    completionTokens: 1_000_000,
    totalTokens: 3_000_000,
    cachedTokens: 0,
  };
  const result = { text: "", exitReason: "done" as const, partial: false, turns: 1, toolCalls: 0, usage };
  const priced = resultObject(result, "gpt-4.1-mini").usage as Record<string, unknown>;
  assertEquals(priced.cost_usd, 2.4);
  assertEquals((resultObject(result, "unknown-model").usage as Record<string, unknown>).cost_usd, null);
  // Scripts read the figure: no floating-point tail (1,700 prompt + 18 output tokens of deepseek-chat).
  const small = { ...result, usage: { promptTokens: 1_700, completionTokens: 18, totalTokens: 1_718 } };
  assertEquals((resultObject(small, "deepseek-chat").usage as Record<string, unknown>).cost_usd, 0.00048356);
});

Deno.test("snakeCaseKeys() gives stream-json events the json result's names; a cancelled result is partial", () => {
  assertEquals(
    snakeCaseKeys({ type: "usage", usage: { promptTokens: 1, cachedTokens: 0 }, list: [{ isError: true }] }),
    { type: "usage", usage: { prompt_tokens: 1, cached_tokens: 0 }, list: [{ is_error: true }] },
  );
  const cancelled = resultObject({
    text: "",
    exitReason: "cancelled",
    partial: false,
    turns: 1,
    toolCalls: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  });
  assertEquals(cancelled.partial, true);
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
