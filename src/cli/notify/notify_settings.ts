/**
 * How tern nudges you when it needs you: `TERN_NOTIFY` (the terminal channels: `bell`, `osc9`, `osc777`,
 * comma-separated, or `off`; default `bell,osc9`), `TERN_NOTIFY_AFTER` (a turn at least this long counts;
 * default 30 s) and `--notify-command`. The terminal channels are off where escapes are not wanted: no
 * terminal, `NO_COLOR`, `TERM=dumb`.
 */
import { parseDuration } from "../../config/settings.ts";

/** A way to reach you through the terminal. */
export type NotifyChannel = "bell" | "osc9" | "osc777";

const CHANNELS: readonly NotifyChannel[] = ["bell", "osc9", "osc777"];

/** What nudges are sent, and when a turn counts as long. */
export interface NotifySettings {
  channels: NotifyChannel[];
  /** A turn that took at least this long ends with a nudge. */
  afterMs: number;
  /** `--notify-command`: run with `bash -c`, the message in its environment and on stdin. */
  command?: string;
  /** Inside tmux: escapes other than the bell go through its passthrough to the outer terminal. */
  tmux: boolean;
}

/** Default of TERN_NOTIFY_AFTER. */
export const DEFAULT_NOTIFY_AFTER_MS = 30_000;

/** The settings `env` gives, with a warning for each value tern cannot use (then the default holds). */
export function notifySettings(
  env: Record<string, string | undefined>,
  options: { isTerminal: boolean; command?: string },
): { settings: NotifySettings; warnings: string[] } {
  const warnings: string[] = [];
  const words = (env.TERN_NOTIFY ?? "").split(",").map((word) => word.trim().toLowerCase()).filter(Boolean);
  let channels: NotifyChannel[] = ["bell", "osc9"];
  if (words.includes("off")) channels = [];
  else if (words.length > 0) {
    const unknown = words.filter((word) => !(CHANNELS as readonly string[]).includes(word));
    if (unknown.length > 0) {
      warnings.push(
        `TERN_NOTIFY=${env.TERN_NOTIFY}: ${unknown.join(", ")} is not one of off, ${CHANNELS.join(", ")}`,
      );
    } else channels = [...new Set(words as NotifyChannel[])];
  }
  const escapes = options.isTerminal && !env.NO_COLOR && env.TERM !== "dumb";
  let afterMs = DEFAULT_NOTIFY_AFTER_MS;
  if (env.TERN_NOTIFY_AFTER !== undefined) {
    const parsed = parseDuration(env.TERN_NOTIFY_AFTER);
    if (parsed === undefined) {
      warnings.push(`TERN_NOTIFY_AFTER=${env.TERN_NOTIFY_AFTER} is not a duration such as 30s or 2m`);
    } else afterMs = parsed;
  }
  const command = options.command?.trim() || undefined;
  const settings = { channels: escapes ? channels : [], afterMs, command, tmux: Boolean(env.TMUX) };
  return { settings, warnings };
}
