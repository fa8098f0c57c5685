import { assert, assertEquals } from "../support/assert.ts";
import { describeModelError } from "../../src/cli/errors.ts";
import { LlmError } from "../../src/llm/types.ts";

const DEEPSEEK = { provider: "DeepSeek", model: "deepseek-chat", keyEnv: "DEEPSEEK_API_KEY" };

Deno.test("describeModelError() names the key variables for a rejected key", () => {
  const error = new LlmError("http", "HTTP 401 from x: Invalid API key", { status: 401 });
  assertEquals(
    describeModelError(error, DEEPSEEK),
    "The API key was rejected: set a valid key in TERN_API_KEY or DEEPSEEK_API_KEY. " +
      "(DeepSeek said: HTTP 401 from x: Invalid API key)",
  );
});

Deno.test("describeModelError() names only TERN_API_KEY for a provider without its own key variable", () => {
  const error = new LlmError("http", "HTTP 403: forbidden", { status: 403 });
  const line = describeModelError(error, { provider: "llama.cpp", model: "local", keyEnv: null });
  assert(line.includes("check the key in TERN_API_KEY and the account's permissions"), line);
});

Deno.test("describeModelError() names --model and --base-url for an unknown model", () => {
  const error = new LlmError("http", "HTTP 404 from x: Model Not Exist", { status: 404 });
  assertEquals(
    describeModelError(error, DEEPSEEK),
    'Model "deepseek-chat" was not found at DeepSeek: check --model (TERN_MODEL), or the base URL ' +
      "(--base-url, TERN_BASE_URL) if it is not DeepSeek. (DeepSeek said: HTTP 404 from x: Model Not Exist)",
  );
});

Deno.test("describeModelError() suggests /clear when the conversation outgrew the context window", () => {
  const error = new LlmError("http", "HTTP 413: too large", { status: 413 });
  assertEquals(
    describeModelError(error, DEEPSEEK),
    "The conversation is too long for deepseek-chat's context window: start a new conversation " +
      "(/clear in the REPL) or split the task. (HTTP 413: too large)",
  );
});

Deno.test("describeModelError() adds nothing to an invalid request or a network failure", () => {
  const bad = new LlmError("http", "HTTP 400 from x: temperature", { status: 400 });
  assertEquals(
    describeModelError(bad, DEEPSEEK),
    "DeepSeek rejected the request as invalid. (DeepSeek said: HTTP 400 from x: temperature)",
  );
  const network = new LlmError("network", "Could not reach x: refused");
  assertEquals(describeModelError(network, DEEPSEEK), "Could not reach x: refused");
});
