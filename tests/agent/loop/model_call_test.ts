import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import {
  callModel,
  type CallState,
  describeFailure,
  type ModelCallOptions,
} from "../../../src/agent/loop/model_call.ts";
import type { AgentEvent } from "../../../src/agent/events.ts";
import { DROPPED_OUTPUT } from "../../../src/agent/log/compact.ts";
import { adviseOnLlmProblem } from "../../../src/cli/errors.ts";
import { createClient } from "../../../src/llm/client.ts";
import { LlmError } from "../../../src/llm/types.ts";
import { Conversation } from "../../../src/agent/log/conversation.ts";
import { type FakeModel, type ScriptedTurn, startFakeModel } from "../../support/fake_model_server.ts";

function options(
  model: FakeModel,
  extra: Partial<ModelCallOptions> = {},
): ModelCallOptions & { events: AgentEvent[] } {
  const events: AgentEvent[] = [];
  return {
    client: createClient({ api: "chat", baseUrl: model.url, apiKey: "k" }),
    model: "fake",
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    events,
    // Fake time: retries never wait.
    retry: { sleep: () => Promise.resolve(), random: () => 0.5 },
    ...extra,
  };
}

const fresh = (): CallState => ({
  turns: 0,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  shown: "",
});
const notices = (events: AgentEvent[]) => events.flatMap((e) => e.type === "notice" ? [e.message] : []);

/** A conversation whose user said `text`. */
function userSaid(text: string): Conversation {
  const conversation = new Conversation({ systemPrompt: "test" });
  conversation.append({ kind: "user", text });
  return conversation;
}

/** A system prompt, a task, `steps` finished echo steps with 10k-token outputs, and a pending request. */
function longHistory(steps: number): Conversation {
  const conversation = userSaid("go");
  for (let i = 0; i < steps; i++) {
    const toolCalls = [{ id: `c${i}`, name: "echo", arguments: "{}" }];
    conversation.append({
      kind: "assistant",
      message: { role: "assistant", content: "", reasoning: "", toolCalls },
    });
    conversation.append({
      kind: "tool_result",
      callId: `c${i}`,
      name: "echo",
      content: "z".repeat(40_000),
      isError: false,
    });
  }
  return conversation;
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    assert(error instanceof LlmError);
    return error;
  }
  throw new Error("expected a rejection");
}

Deno.test("callModel() retries a 429 after Retry-After with one retry event, then returns the turn", async () => {
  await using model = startFakeModel([{ status: 429, retryAfter: "2" }, {
    text: "Hi.",
    usage: { prompt_tokens: 5, completion_tokens: 1 },
  }]);
  const opts = options(model);
  const state = fresh();
  const turn = await callModel(userSaid("go"), [], state, opts);
  assertEquals(turn.text, "Hi.");
  assertEquals(state.turns, 1);
  assertEquals(state.usage.totalTokens, 6);
  assertEquals(opts.events.map((e) => e.type), ["model_start", "retry", "text_delta", "usage"]);
  assertEquals(opts.events[1], {
    type: "retry",
    attempt: 2,
    maxAttempts: 6,
    delayMs: 2000,
    reason: "429 rate limited",
  });
});

Deno.test("callModel() leaves the shown text of an interrupted answer in the state", async () => {
  await using model = startFakeModel([{ text: "Half of it", cutAfterChunks: 3 } satisfies ScriptedTurn]);
  const state = fresh();
  const opts = options(model, { retry: { maxAttempts: 1 } });
  const error = await failure(callModel(userSaid("go"), [], state, opts));
  assertEquals(state.shown, "Half of ");
  const described = describeFailure(error, state, opts);
  assertEquals(described.cancelled, false);
  assertStringIncludes(described.message, "the answer was interrupted");
  assert(described.kept.content.startsWith("Half of \n\n[interrupted: "));
});

Deno.test("describeFailure() names the key variable when the provider rejects the key", async () => {
  await using model = startFakeModel([{ status: 401, errorBody: '{"error":{"message":"bad key"}}' }]);
  const provider = { provider: "DeepSeek", keyEnv: "DEEPSEEK_API_KEY", advise: adviseOnLlmProblem };
  const opts = options(model, { provider });
  const error = await failure(callModel(userSaid("go"), [], fresh(), opts));
  const described = describeFailure(error, fresh(), opts);
  assertStringIncludes(described.message, "TERN_API_KEY or DEEPSEEK_API_KEY");
  assertEquals(described.kept.role, "assistant");
  assertEquals(model.requests.length, 1);
});

Deno.test("describeFailure() reports a cancellation as such", () => {
  const controller = new AbortController();
  controller.abort();
  const opts = { client: undefined as never, model: "m", signal: controller.signal, onEvent: () => {} };
  const described = describeFailure(new LlmError("aborted", "cancelled"), fresh(), opts);
  assertEquals(described, {
    cancelled: true,
    message: "cancelled by the user",
    kept: { role: "assistant", content: "[interrupted: cancelled by the user]" },
  });
});

Deno.test("callModel() drops old tool outputs and tries once more after a context-overflow error", async () => {
  const overflow =
    '{"error":{"message":"maximum context length is 8192 tokens","code":"context_length_exceeded"}}';
  await using model = startFakeModel([{ status: 400, errorBody: overflow }, { text: "Fits now." }]);
  const history = longHistory(3);
  const opts = options(model, { contextWindow: 1_000_000 });
  const state = fresh();
  assertEquals((await callModel(history, [], state, opts)).text, "Fits now.");
  assertEquals(state.turns, 2);
  assertStringIncludes(JSON.stringify(model.requests[1].messages), DROPPED_OUTPUT);
  assert(history.messages().some((m) => m.content === DROPPED_OUTPUT), "later requests stay compacted");
  assert(history.entries.some((e) => e.kind === "compaction"), "the compaction is an entry of its own");
  assert(
    history.entries.every((e) => e.kind !== "tool_result" || e.content.length === 40_000),
    "the log keeps every output",
  );
  assert(notices(opts.events).some((n) => n.startsWith("The request was too long")));
});

Deno.test("callModel() compacts before a request that nears the context window", async () => {
  await using model = startFakeModel([{ text: "Done." }]);
  const history = longHistory(3);
  const opts = options(model, { contextWindow: 36_000 });
  await callModel(history, [], fresh(), opts);
  assertStringIncludes(JSON.stringify(model.requests[0].messages), DROPPED_OUTPUT);
  assert(notices(opts.events).some((n) => n.startsWith("Context: dropped")));
});

Deno.test("callModel() rethrows a context overflow that compaction cannot fix, with one request", async () => {
  await using model = startFakeModel([{
    status: 400,
    errorBody: '{"error":{"message":"prompt is too long"}}',
  }]);
  const opts = options(model, { contextWindow: 1_000 });
  const error = await failure(callModel(userSaid("go"), [], fresh(), opts));
  assertStringIncludes(describeFailure(error, fresh(), opts).message, "too long for fake's context window");
  assertEquals(model.requests.length, 1);
});
