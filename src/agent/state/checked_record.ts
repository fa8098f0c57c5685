/**
 * Sealed records of how far a start-up check got (session_check.ts, history_seal.ts), so a check that
 * would grow with the project's history reads only what changed since. A record tern did not seal here
 * (planted, copied, forged) reads as none: everything is checked again.
 */
import { openJson, sealJson, type StateSeal } from "./seal.ts";

/** The record in `file`, its seal checked as `label`; undefined when missing or not sealed here. */
export function readChecked(
  file: string,
  seal: StateSeal,
  label: string,
): Record<string, unknown> | undefined {
  try {
    return openJson(seal, label, Deno.readTextFileSync(file));
  } catch {
    return undefined;
  }
}

/** Keeps `data` in `file` (written beside, then renamed over: a reader sees the old record or the new). */
export function writeChecked(
  file: string,
  seal: StateSeal,
  label: string,
  data: Record<string, unknown>,
): void {
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    Deno.writeTextFileSync(temp, sealJson(seal, label, data), { createNew: true, mode: 0o600 });
    Deno.renameSync(temp, file);
  } catch {
    // Not kept: the next start checks everything again.
    Deno.remove(temp).catch(() => {});
  }
}
