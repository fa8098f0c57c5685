import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "../support/fake_model_server.ts";
import { createClient } from "../../src/llm/client.ts";
import {
  backoffMs,
  describeLlmError,
  isContextOverflow,
  parseRetryAfter,
  type RetryInfo,
  retryReason,
  withRetries,
} from "../../src/llm/retry.ts";
import { type AssistantTurn, type ChatRequest, LlmError, type StreamEvent } from "../../src/llm/types.ts";

const REQUEST: ChatRequest = { model: "fake-model", messages: [{ role: "user", content: "hi" }], tools: [] };
const DEEPSEEK = { provider: "DeepSeek", model: "deepseek-chat", keyEnv: "DEEPSEEK_API_KEY" };

/** Runs the real client against a fake model scripted with `turns`, retrying with fake time. */
async function callWithRetries(
  turns: ScriptedTurn[],
  options: { maxAttempts?: number; now?: number; baseDelayMs?: number } = {},
) {
  await using model = startFakeModel(turns);
  const client = createClient({ api: "chat", baseUrl: model.url, apiKey: "sk-test" });
  const retries: RetryInfo[] = [];
  const slept: number[] = [];
  const events: StreamEvent[] = [];
  const signal = new AbortController().signal;
  let outcome: AssistantTurn | LlmError;
  try {
    outcome = await withRetries((_n) => client.stream(REQUEST, signal, (e) => events.push(e)), {
      signal,
      maxAttempts: options.maxAttempts,
      baseDelayMs: options.baseDelayMs,
      onRetry: (info) => retries.push(info),
      sleep: (ms) => {
        slept.push(ms);
        return Promise.resolve();
      },
      random: () => 0.5,
      now: () => options.now ?? 0,
    });
  } catch (error) {
    assert(error instanceof LlmError, `expected an LlmError, got ${error}`);
    outcome = error;
  }
  return { outcome, retries, slept, events, requests: model.requests.length };
}

function turnOf(outcome: AssistantTurn | LlmError): AssistantTurn {
  if (outcome instanceof LlmError) throw new Error(`expected a turn, got: ${outcome.message}`);
  return outcome;
}

function errorOf(outcome: AssistantTurn | LlmError): LlmError {
  if (!(outcome instanceof LlmError)) throw new Error(`expected an error, got a turn: ${outcome.text}`);
  return outcome;
}

Deno.test("withRetries() waits at least Retry-After after a 429, then returns the successful turn", async () => {
  const run = await callWithRetries([{ status: 429, retryAfter: "3" }, { text: "Hello." }]);
  assertEquals(turnOf(run.outcome).text, "Hello.");
  assertEquals(run.retries, [{ attempt: 2, maxAttempts: 6, delayMs: 3000, reason: "429 rate limited" }]);
  assertEquals(run.slept, [3000]);
  assertEquals(run.requests, 2);
});

Deno.test("withRetries() retries a 503 twice with growing backoff and succeeds on the third attempt", async () => {
  const run = await callWithRetries([{ status: 503 }, { status: 503 }, { text: "Third time." }]);
  assertEquals(turnOf(run.outcome).text, "Third time.");
  assertEquals(run.retries, [
    { attempt: 2, maxAttempts: 6, delayMs: 750, reason: "503 service unavailable" },
    { attempt: 3, maxAttempts: 6, delayMs: 1500, reason: "503 service unavailable" },
  ]);
  assertEquals(run.requests, 3);
});

Deno.test("withRetries() gives up after six attempts by default and says how many it made", async () => {
  const statuses = [500, 502, 503, 504, 529, 507];
  const run = await callWithRetries([...statuses.map((status) => ({ status })), { text: "unused" }]);
  const error = errorOf(run.outcome);
  assertEquals(error.status, 507);
  assertStringIncludes(error.message, "(gave up after 6 attempts)");
  assertEquals(run.retries.map((r) => r.reason).slice(3), ["504 gateway timeout", "529 overloaded"]);
  assertEquals(run.slept, [750, 1500, 3000, 6000, 12000]);
  assertEquals(run.requests, 6);
});

Deno.test("withRetries() retries 408 and 409 and takes a first backoff step of baseDelayMs", async () => {
  const run = await callWithRetries([{ status: 408 }, { status: 409 }, { text: "ok" }], { baseDelayMs: 10 });
  assertEquals(turnOf(run.outcome).text, "ok");
  assertEquals(run.slept, [8, 15]);
});

Deno.test("withRetries() honours maxAttempts: 1 as no retry at all", async () => {
  const run = await callWithRetries([{ status: 503 }], { maxAttempts: 1 });
  assertEquals(errorOf(run.outcome).status, 503);
  assertEquals(run.retries, []);
  assertEquals(run.requests, 1);
});

Deno.test("withRetries() retries a stream cut before any output was shown", async () => {
  const run = await callWithRetries([{ text: "lost", cutAfterChunks: 1 }, { text: "Whole answer." }]);
  assertEquals(turnOf(run.outcome).text, "Whole answer.");
  assertEquals(run.retries.map((r) => r.reason), ["stream interrupted"]);
  assertEquals(run.events.map((e) => e.type === "text_delta" ? e.text : "").join(""), "Whole answer.");
});

Deno.test("withRetries() retries a stream cut after text was shown, saying the shown part is discarded", async () => {
  const run = await callWithRetries([{ text: "Half of the answer", cutAfterChunks: 3 }, { text: "Whole." }]);
  assertEquals(turnOf(run.outcome).text, "Whole.");
  assertEquals(run.retries.map((r) => [r.reason, r.discarded]), [["stream interrupted", true]]);
  assertEquals(run.requests, 2);
});

Deno.test("withRetries() keeps partialOutput on the last error when a cut after reasoning never recovers", async () => {
  const cut = { reasoning: "Thinking hard", cutAfterChunks: 2 };
  const run = await callWithRetries([cut, cut], { maxAttempts: 2 });
  assertEquals(errorOf(run.outcome).partialOutput, true);
  assertEquals(run.requests, 2);
});

Deno.test("withRetries() retries a stream that ends without [DONE] and without a finish_reason", async () => {
  const run = await callWithRetries([
    { finishReason: null, omitDone: true },
    { text: "Done properly." },
  ]);
  assertEquals(turnOf(run.outcome).text, "Done properly.");
  assertEquals(run.retries.map((r) => r.reason), ["stream interrupted"]);
});

Deno.test("withRetries() reports a tool call from a cut stream as an error, never as a turn", async () => {
  const run = await callWithRetries([
    {
      text: "Let me edit.",
      toolCalls: [{ name: "write_file", arguments: '{"path":"a.txt","content":"x"}' }],
      cutAfterChunks: 6,
    },
  ], { maxAttempts: 1 });
  const error = errorOf(run.outcome);
  assertEquals(error.kind, "interrupted");
  assertEquals(error.partialOutput, true);
});

Deno.test("withRetries() does not retry a 401, described with the provider's words and no CLI advice", async () => {
  const run = await callWithRetries([{ status: 401, errorBody: '{"error":{"message":"Invalid API key"}}' }]);
  const error = errorOf(run.outcome);
  assertEquals(run.requests, 1);
  assertEquals(run.retries, []);
  const failure = describeLlmError(error, DEEPSEEK);
  assertEquals(failure.contextOverflow, false);
  assertStringIncludes(failure.message, "The API key was rejected. (DeepSeek said: ");
  assertStringIncludes(failure.message, "Invalid API key");
  assert(!failure.message.includes("TERN_"), failure.message);
});

Deno.test("withRetries() does not retry 400, 403 or 404", async () => {
  for (const status of [400, 403, 404]) {
    const run = await callWithRetries([{ status }, { text: "unused" }]);
    assertEquals(errorOf(run.outcome).status, status);
    assertEquals(run.requests, 1, `HTTP ${status} is not retried`);
  }
});

Deno.test("withRetries() reports an error object in the stream without retrying it", async () => {
  const run = await callWithRetries([
    { streamError: { message: "upstream model crashed", code: 500 } },
    { text: "unused" },
  ]);
  const error = errorOf(run.outcome);
  assertEquals(error.kind, "stream_error");
  assertEquals(error.partialOutput, false);
  assertStringIncludes(error.message, "upstream model crashed");
  assertEquals(run.requests, 1);
});

Deno.test("withRetries() resends after an overloaded or rate-limit error that arrives after text", async () => {
  for (const message of ["overloaded", "Rate limit reached for requests", "Too Many Requests"]) {
    const run = await callWithRetries([{ text: "Partly", streamError: { message } }, {
      text: "Again, whole.",
    }]);
    assertEquals(turnOf(run.outcome).text, "Again, whole.", message);
    assertEquals(run.retries.map((r) => [r.reason, r.discarded]), [[
      "overloaded (said in the stream)",
      true,
    ]]);
  }
});

Deno.test("withRetries() keeps partialOutput on an in-stream error after text once attempts run out", async () => {
  const run = await callWithRetries([{ text: "Partly", streamError: { message: "overloaded" } }], {
    maxAttempts: 1,
  });
  assertEquals(errorOf(run.outcome).partialOutput, true);
});

Deno.test("withRetries() retries a silent stream once, not more", async () => {
  let attempts = 0;
  const silent = () => {
    attempts++;
    const message = "The connection to x dropped mid-stream: no data within 90 s";
    return Promise.reject(new LlmError("network", message, { retryOnce: true }));
  };
  const reasons: string[] = [];
  const error = await withRetries(silent, {
    signal: new AbortController().signal,
    sleep: () => Promise.resolve(),
    onRetry: (info) => reasons.push(info.reason),
  }).catch((e) => e);
  assert(error instanceof LlmError);
  assertStringIncludes(error.message, "no data within 90 s (twice in a row)");
  assertEquals([attempts, reasons], [2, ["stream silent"]]);
});

Deno.test("withRetries() gives up at once when the server asks to wait more than 60 s", async () => {
  const run = await callWithRetries([{ status: 429, retryAfter: "120" }, { text: "unused" }]);
  const error = errorOf(run.outcome);
  assertEquals(error.message, "the provider asked to wait 120 s (429 rate limited); try again later");
  assertEquals(error.status, 429);
  assertEquals(run.slept, []);
  assertEquals(run.requests, 1);
});

Deno.test("withRetries() reads Retry-After given as an HTTP date", async () => {
  const now = Date.parse("Wed, 21 Oct 2026 07:28:00 GMT");
  const run = await callWithRetries(
    [{ status: 503, retryAfter: "Wed, 21 Oct 2026 07:28:07 GMT" }, { text: "ok" }],
    { now },
  );
  assertEquals(turnOf(run.outcome).text, "ok");
  assertEquals(run.slept, [7000]);
});

Deno.test("withRetries() stops waiting and reports a cancellation when the signal aborts mid-wait", async () => {
  const controller = new AbortController();
  let attempts = 0;
  const failing = () => {
    attempts++;
    return Promise.reject(new LlmError("http", "HTTP 503", { status: 503, retryAfter: "30" }));
  };
  try {
    // The real sleep: aborting must end a 30 s wait at once (the test would time out otherwise).
    await withRetries(failing, { signal: controller.signal, onRetry: () => controller.abort() });
    throw new Error("expected a rejection");
  } catch (error) {
    assert(error instanceof LlmError);
    assertEquals(error.kind, "aborted");
  }
  assertEquals(attempts, 1);
});

Deno.test("withRetries() rethrows an error that is not an LlmError without retrying", async () => {
  let attempts = 0;
  const boom = new TypeError("a bug");
  try {
    await withRetries(() => {
      attempts++;
      return Promise.reject(boom);
    }, { signal: new AbortController().signal });
  } catch (error) {
    assertEquals(error, boom);
  }
  assertEquals(attempts, 1);
});

Deno.test("withRetries() passes the attempt number to each attempt", async () => {
  const seen: number[] = [];
  const result = await withRetries((n) => {
    seen.push(n);
    return n < 3 ? Promise.reject(new LlmError("network", "Could not reach x")) : Promise.resolve("ok");
  }, { signal: new AbortController().signal, sleep: () => Promise.resolve() });
  assertEquals(result, "ok");
  assertEquals(seen, [1, 2, 3]);
});

Deno.test("backoffMs() doubles each step, stays within its jitter band, and caps at 30 s", () => {
  assertEquals([1, 2, 3, 4].map((n) => backoffMs(n, () => 0)), [500, 1000, 2000, 4000]);
  assertEquals([1, 2, 3, 4].map((n) => backoffMs(n, () => 0.999999)), [1000, 2000, 4000, 8000]);
  assertEquals(backoffMs(20, () => 0), 15_000);
  assertEquals(backoffMs(20, () => 0.999999), 30_000);
});

Deno.test("withRetries() uses Retry-After as a floor and the backoff when it is longer", async () => {
  const delays: number[] = [];
  const errors = [
    new LlmError("http", "HTTP 503", { status: 503, retryAfter: "0" }),
    new LlmError("http", "HTTP 503", { status: 503, retryAfter: "5" }),
  ];
  await withRetries((n) => n <= errors.length ? Promise.reject(errors[n - 1]) : Promise.resolve(), {
    signal: new AbortController().signal,
    maxAttempts: 3,
    onRetry: (info) => delays.push(info.delayMs),
    sleep: () => Promise.resolve(),
    random: () => 0.5,
  });
  assertEquals(delays, [750, 5000]);
});

Deno.test("parseRetryAfter() reads seconds and HTTP dates and ignores anything else", () => {
  const now = Date.parse("Wed, 21 Oct 2026 07:28:00 GMT");
  assertEquals(parseRetryAfter("2", now), 2000);
  assertEquals(parseRetryAfter(" 1.5 ", now), 1500);
  assertEquals(parseRetryAfter("Wed, 21 Oct 2026 07:29:00 GMT", now), 60_000);
  assertEquals(parseRetryAfter("Wed, 21 Oct 2026 07:00:00 GMT", now), 0);
  assertEquals(parseRetryAfter(undefined, now), undefined);
  assertEquals(parseRetryAfter("", now), undefined);
  assertEquals(parseRetryAfter("-1", now), undefined);
  assertEquals(parseRetryAfter("soon", now), undefined);
});

Deno.test("retryReason() names the status or the kind of failure in a few words", () => {
  assertEquals(retryReason(new LlmError("http", "x", { status: 429 })), "429 rate limited");
  assertEquals(retryReason(new LlmError("http", "x", { status: 502 })), "502 bad gateway");
  assertEquals(retryReason(new LlmError("network", "Could not reach x")), "connection failed");
  assertEquals(
    retryReason(new LlmError("network", "The connection dropped mid-stream")),
    "connection dropped",
  );
  assertEquals(retryReason(new LlmError("interrupted", "x")), "stream interrupted");
});

Deno.test("describeLlmError() names the model and provider for a 404", () => {
  const error = new LlmError("http", "HTTP 404 from https://api.deepseek.com: Model Not Exist", {
    status: 404,
  });
  const failure = describeLlmError(error, DEEPSEEK);
  assertStringIncludes(failure.message, 'Model "deepseek-chat" was not found at DeepSeek. (DeepSeek said');
  assertEquals(failure.contextOverflow, false);
});

Deno.test("describeLlmError() puts the advice of context.advise between the summary and the provider's words", () => {
  const error = new LlmError("http", "HTTP 403: forbidden", { status: 403 });
  const seen: string[] = [];
  const advise = (problem: string) => (seen.push(problem), "ask an admin");
  const failure = describeLlmError(error, { provider: "P", model: "m", advise });
  assertEquals(
    failure.message,
    "The API key has no access to m: ask an admin. (P said: HTTP 403: forbidden)",
  );
  assertEquals(seen, ["no_access"]);
});

Deno.test("describeLlmError() flags every known context-overflow wording of a 400", () => {
  const wordings = [
    "This model's maximum context length is 65536 tokens (context_length_exceeded)",
    "This model's maximum context length is 8192 tokens",
    "Request has too many tokens",
    "prompt is too long: 210000 tokens > 200000 maximum",
    "input exceeds the context window of this model",
  ];
  for (const words of wordings) {
    const error = new LlmError("http", `HTTP 400 from x: ${words}`, { status: 400 });
    const failure = describeLlmError(error, DEEPSEEK);
    assertEquals(failure.contextOverflow, true, words);
    assertStringIncludes(failure.message, "too long for deepseek-chat's context window");
  }
});

Deno.test("describeLlmError() flags a 413 and an in-stream overflow error, but not a plain 400", () => {
  assert(isContextOverflow(new LlmError("http", "HTTP 413: too large", { status: 413 })));
  assert(isContextOverflow(new LlmError("stream_error", "Stream error: context_length_exceeded")));
  const plain = new LlmError("http", "HTTP 400 from x: temperature must be ≤ 2", { status: 400 });
  const failure = describeLlmError(plain, DEEPSEEK);
  assertEquals(failure.contextOverflow, false);
  assertStringIncludes(failure.message, "DeepSeek rejected the request as invalid");
  assertStringIncludes(failure.message, "temperature must be ≤ 2");
});

Deno.test("describeLlmError() keeps the message of other failures as it is", () => {
  const error = new LlmError("network", "Could not reach http://127.0.0.1:9: connection refused");
  assertEquals(describeLlmError(error, DEEPSEEK), { message: error.message, contextOverflow: false });
  assertEquals(describeLlmError("odd", DEEPSEEK), { message: "odd", contextOverflow: false });
});
