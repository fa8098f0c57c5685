/**
 * The environment's knobs for model calls: how long to wait for a first byte and between two pieces of a
 * stream, how many times to retry a failed call and how long the first backoff step is.
 */
import { parseDuration } from "./settings.ts";

/** How model calls wait and retry; each absent field keeps the transport's or the retry policy's default. */
export interface ModelCallSettings {
  /** Longest wait for a response's first byte (TERN_FIRST_BYTE_TIMEOUT; default 120 s). */
  firstByteTimeoutMs?: number;
  /** Longest silence inside a stream before it counts as dropped (TERN_STREAM_IDLE_TIMEOUT; default 90 s). */
  idleTimeoutMs?: number;
  /** Retries after a failed attempt (TERN_MAX_RETRIES; default 5, so 6 attempts in all). */
  maxRetries?: number;
  /** The first backoff step, doubled at each retry (TERN_RETRY_DELAY; default 1 s). */
  retryDelayMs?: number;
}

const DURATIONS = {
  TERN_FIRST_BYTE_TIMEOUT: "firstByteTimeoutMs",
  TERN_STREAM_IDLE_TIMEOUT: "idleTimeoutMs",
  TERN_RETRY_DELAY: "retryDelayMs",
} as const;

/** Reads the knobs from `env`; `problem` is one line naming a variable with an unusable value. */
export function modelCallEnv(
  env: Record<string, string | undefined>,
): { settings: ModelCallSettings; problem?: string } {
  const settings: ModelCallSettings = {};
  for (const [name, field] of Object.entries(DURATIONS)) {
    const value = env[name];
    if (value === undefined) continue;
    const ms = parseDuration(value);
    if (ms === undefined || ms <= 0) {
      return { settings, problem: `${name} must be a duration such as 90s, 5m or 500ms (got '${value}')` };
    }
    settings[field] = ms;
  }
  const retries = env.TERN_MAX_RETRIES;
  if (retries !== undefined) {
    if (!/^\d{1,2}$/.test(retries.trim())) {
      return { settings, problem: `TERN_MAX_RETRIES must be a whole number from 0 to 99 (got '${retries}')` };
    }
    settings.maxRetries = Number(retries.trim());
  }
  return { settings };
}
