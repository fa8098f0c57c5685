/** Retry policy for one model call (backoff with jitter, Retry-After), and model-call errors in words. */
import { type AssistantTurn, LlmError } from "./types.ts";

/** Attempts per model call, the first included (TERN_MAX_RETRIES sets the retries after it). */
export const DEFAULT_MAX_ATTEMPTS = 6;
/** First backoff step; each retry doubles it, up to MAX_BACKOFF_MS (TERN_RETRY_DELAY sets it). */
export const BASE_BACKOFF_MS = 1_000;
/** Longest backoff we choose ourselves (a Retry-After floor may be longer, up to MAX_RETRY_AFTER_MS). */
export const MAX_BACKOFF_MS = 30_000;
/** Longest wait a server may ask for before we give up instead of waiting. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** What a retry event reports: the attempt about to start, the wait before it, and why. */
export interface RetryInfo {
  /** The attempt that will run after the wait (2 for the first retry). */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** Short words for the failure, e.g. "429 rate limited". */
  reason: string;
  /** The failed attempt had already shown some of its answer: that part is discarded, not kept. */
  discarded?: true;
}

/** How withRetries waits and reports; the clock, dice and sleep are injectable for tests. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 6). */
  maxAttempts?: number;
  /** The first backoff step in milliseconds (default 1 s); each retry doubles it. */
  baseDelayMs?: number;
  /** Aborting it ends a pending wait at once with LlmError("aborted"). */
  signal: AbortSignal;
  /** Called before each wait, so the loop can emit its `retry` event. */
  onRetry?: (info: RetryInfo) => void;
  /** Waits `ms` or until `signal` aborts (default: a real timer). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
  /** Epoch milliseconds, for Retry-After given as an HTTP date (default Date.now). */
  now?: () => number;
}

/**
 * Runs `attempt(1)`, and again with the next number after a retryable LlmError, up to `maxAttempts` in
 * all. A failed attempt that already showed part of its answer is retried too: what it showed is discarded
 * (the retry event says so) and the request resent. A `retryOnce` failure (a silent server, an empty answer)
 * gets one more attempt, not more. Non-retryable errors are rethrown at once; a server asking to wait longer
 * than 60 s, or running out of attempts, ends with a clear LlmError.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const sleep = options.sleep ?? abortableSleep;
  const retriedOnce = new Set<string>();
  for (let n = 1;; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof LlmError) || !error.retryable) throw error;
      if (options.signal.aborted) throw cancelled();
      const reason = retryReason(error);
      if (error.retryOnce && retriedOnce.has(reason)) {
        throw rewrap(error, `${error.message} (twice in a row)`);
      }
      if (error.retryOnce) retriedOnce.add(reason);
      const floorMs = parseRetryAfter(error.retryAfter, (options.now ?? Date.now)());
      if (floorMs !== undefined && floorMs > MAX_RETRY_AFTER_MS) {
        const seconds = Math.ceil(floorMs / 1000);
        throw rewrap(error, `the provider asked to wait ${seconds} s (${reason}); try again later`);
      }
      if (n >= maxAttempts) {
        throw maxAttempts === 1 ? error : rewrap(error, `${error.message} (gave up after ${n} attempts)`);
      }
      const backoff = backoffMs(n, options.random ?? Math.random, options.baseDelayMs);
      const delayMs = Math.max(backoff, floorMs ?? 0);
      const discarded = error.partialOutput ? { discarded: true as const } : {};
      options.onRetry?.({ attempt: n + 1, maxAttempts, delayMs, reason, ...discarded });
      await sleep(delayMs, options.signal);
      if (options.signal.aborted) throw cancelled();
    }
  }
}

/**
 * The wait after failed attempt `n` (1-based): "equal jitter" — half of the exponential step for sure, the
 * other half random — so retries never bunch up at zero the way full jitter can, yet still spread out.
 */
export function backoffMs(
  n: number,
  random: () => number = Math.random,
  baseMs: number = BASE_BACKOFF_MS,
): number {
  const step = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** (n - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** A Retry-After header as milliseconds from `now`: delay-seconds or an HTTP date; undefined when unusable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only an actual date: Date.parse would also accept things like "5" or "-1" as years.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

const STATUS_WORDS: Record<number, string> = {
  400: "bad request",
  401: "unauthorized",
  403: "forbidden",
  404: "not found",
  408: "request timeout",
  409: "conflict",
  413: "request too large",
  429: "rate limited",
  500: "server error",
  502: "bad gateway",
  503: "service unavailable",
  504: "gateway timeout",
  529: "overloaded",
};

/** Short words for why an attempt failed, as the retry line shows them: "429 rate limited". */
export function retryReason(error: LlmError): string {
  switch (error.kind) {
    case "http":
      return `${error.status ?? "HTTP"} ${STATUS_WORDS[error.status ?? 0] ?? "error"}`;
    case "network":
      if (/no data within/.test(error.message)) return "stream silent";
      if (/no response within/.test(error.message)) return "no response";
      return /dropped/.test(error.message) ? "connection dropped" : "connection failed";
    case "interrupted":
      return "stream interrupted";
    case "stream_error":
      return error.retryable ? "overloaded (said in the stream)" : "error in the stream";
    case "bad_response":
      return error.retryOnce ? "empty answer" : "unexpected response";
    case "aborted":
      return "cancelled";
  }
}

/** What a failed call needs fixed, so the CLI can say how (its flags, variables and commands). */
export type LlmProblem =
  | "key_rejected" // 401
  | "no_access" // 403
  | "model_not_found" // 404
  | "invalid_request" // 400 other than an overflow
  | "context_overflow"; // the request did not fit the context window

/** Where a failed model call came from, for messages that say what to fix. */
export interface CallContext {
  /** The provider's human name, e.g. "DeepSeek". */
  provider: string;
  model: string;
  /** The provider's own key variable (e.g. DEEPSEEK_API_KEY); null or absent for keyless servers. */
  keyEnv?: string | null;
  /**
   * Words on how to fix `problem`, e.g. which flag or variable to set; the CLI supplies them (see
   * src/cli/errors.ts), since this layer knows no flags. Undefined: the message says what, not how.
   */
  advise?: (problem: LlmProblem, context: CallContext) => string | undefined;
}

/** A model-call failure in words, plus whether compacting the history could help. */
export interface LlmFailure {
  message: string;
  /** The request was longer than the model's context window: compact and retry once. */
  contextOverflow: boolean;
}

const CONTEXT_OVERFLOW = [
  /context_length_exceeded/i,
  /maximum context length/i,
  /too many tokens/i,
  /prompt is too long/i,
  /context window/i,
  /context length/i,
];

/** True when the error says the request did not fit the model's context window. */
export function isContextOverflow(error: unknown): boolean {
  if (!(error instanceof LlmError)) return false;
  if (error.kind === "http" && error.status === 413) return true;
  const fromServer = error.kind === "stream_error" || (error.kind === "http" && error.status === 400);
  return fromServer && CONTEXT_OVERFLOW.some((pattern) => pattern.test(error.message));
}

const HTTP_PROBLEMS: Record<number, LlmProblem> = {
  401: "key_rejected",
  403: "no_access",
  404: "model_not_found",
  400: "invalid_request",
};

/** The fix a failed call needs, when it is one the user can make; undefined for transient or unknown ones. */
export function llmProblem(error: unknown): LlmProblem | undefined {
  if (isContextOverflow(error)) return "context_overflow";
  if (!(error instanceof LlmError) || error.kind !== "http") return undefined;
  return HTTP_PROBLEMS[error.status ?? 0];
}

const SUMMARIES: Record<LlmProblem, (context: CallContext) => string> = {
  key_rejected: () => "The API key was rejected",
  no_access: (c) => `The API key has no access to ${c.model}`,
  model_not_found: (c) => `Model "${c.model}" was not found at ${c.provider}`,
  invalid_request: (c) => `${c.provider} rejected the request as invalid`,
  context_overflow: (c) => `The conversation is too long for ${c.model}'s context window`,
};

/**
 * Says in words what a failed model call means, with `context.advise`'s words on how to fix it: a
 * rejected key, an unknown model, a too-long request (flagged `contextOverflow`). Other errors keep their
 * own message (it already names the server and the provider's words).
 */
export function describeLlmError(error: unknown, context: CallContext): LlmFailure {
  const message = error instanceof Error ? error.message : String(error);
  const problem = llmProblem(error);
  if (problem === undefined) return { message, contextOverflow: false };
  const advice = context.advise?.(problem, context);
  const said = problem === "context_overflow" ? message : `${context.provider} said: ${message}`;
  return {
    message: `${SUMMARIES[problem](context)}${advice ? `: ${advice}` : ""}. (${said})`,
    contextOverflow: problem === "context_overflow",
  };
}

function rewrap(error: LlmError, message: string): LlmError {
  return new LlmError(error.kind, message, {
    status: error.status,
    retryAfter: error.retryAfter,
    partialOutput: error.partialOutput,
    retryable: error.retryable,
    retryOnce: error.retryOnce,
    cause: error,
  });
}

/** True for an answer with nothing in it: no text and no tool call (reasoning alone does not count). */
export function isEmptyAnswer(turn: AssistantTurn): boolean {
  return turn.text.trim() === "" && turn.toolCalls.length === 0 && turn.finishReason !== "length";
}

/** The failure an empty answer counts as, retried once (see withRetries). */
export function emptyAnswerError(): LlmError {
  const message = "the model returned an empty response (no text and no tool call)";
  return new LlmError("bad_response", message, { retryable: true, retryOnce: true });
}

function cancelled(): LlmError {
  return new LlmError("aborted", "The model call was cancelled");
}

/** Resolves after `ms`, or as soon as `signal` aborts; never leaves a timer behind. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}
