/** Option values checked one by one: each returns the value tern uses, or throws a one-line `UsageError`. */
import { type ApproveMode, parseDuration } from "../config/settings.ts";
import { UsageError } from "./usage_error.ts";

const APPROVE_MODES: readonly ApproveMode[] = ["ask", "edits", "all", "plan"];

/** `value` when it is one of `allowed`; undefined when absent; a `UsageError` otherwise. */
export function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")} (got '${value}')`);
}

/** `--approve` or its synonym `--mode` (default ask); both, naming different modes, is a `UsageError`. */
export function approveMode(approve: string | undefined, mode: string | undefined): ApproveMode {
  const fromApprove = oneOf("--approve", approve, APPROVE_MODES);
  const fromMode = oneOf("--mode", mode, APPROVE_MODES);
  if (fromApprove && fromMode && fromApprove !== fromMode) {
    throw new UsageError(`--approve ${fromApprove} and --mode ${fromMode} disagree; give one of them`);
  }
  return fromMode ?? fromApprove ?? "ask";
}

/** `--require-tools a,b`: the names in order; a `UsageError` for an empty list or an empty name. */
export function toolList(value: string): string[] {
  const names = value.split(",").map((name) => name.trim());
  if (names.some((name) => name === "")) {
    throw new UsageError(
      `--require-tools needs tool names separated by commas, e.g. list_dir,read_file (got '${value}')`,
    );
  }
  return names;
}

/** `value` trimmed; a `UsageError` when that leaves nothing. */
export function nonEmpty(flag: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === "") throw new UsageError(`${flag} needs a value`);
  return trimmed;
}

/** `value` as a duration in milliseconds ("90", "90s", "15m", "1h30m"); a `UsageError` otherwise. */
export function duration(flag: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) {
    throw new UsageError(`${flag} must be a duration such as 90s, 15m or 1h30m (got '${value}')`);
  }
  return ms;
}

/** `value` as a positive whole number; a `UsageError` for anything else (0, -1, 1.5, 1e3, abc). */
export function positiveInteger(flag: string, value: string): number {
  const trimmed = value.trim();
  const number = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(number) || number <= 0) {
    throw new UsageError(`${flag} must be a positive whole number (got '${value}')`);
  }
  return number;
}
