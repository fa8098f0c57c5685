/**
 * The nudge when tern needs you: an approval waits, or a long turn ended. The Notification hooks always
 * hear of it (as in Claude Code: `permission_prompt` or `idle_prompt`); the bell, the desktop notification
 * escape (OSC 9 or OSC 777) and `--notify-command` only when the terminal said it lost the focus, so a
 * person looking at tern is not pinged.
 */
import { childEnv } from "../../tools/shell/child_env.ts";
import type { FocusTracker } from "./focus.ts";
import type { NotifySettings } from "./notify_settings.ts";

/** What a nudge is about, as Claude Code's Notification hook names it. */
export type NudgeKind = "permission_prompt" | "idle_prompt";

/** Longest message sent, in characters: a notification is a line, not a page. */
const MAX_MESSAGE = 200;
/** How long `--notify-command` may run before it is killed. */
const COMMAND_TIMEOUT_MS = 10_000;

/** What the nudger writes to and tells. */
export interface NudgeOptions {
  focus?: FocusTracker;
  write(text: string): void;
  /** Runs the session's Notification hooks. */
  hooks?(kind: NudgeKind, message: string): Promise<void>;
  /** Told when --notify-command cannot run or fails. */
  warn?(message: string): void;
  root: string;
}

/** Sends nudges as the settings say. */
export class Nudger {
  readonly #settings: NotifySettings;
  readonly #options: NudgeOptions;
  readonly #running = new Set<Promise<void>>();

  constructor(settings: NotifySettings, options: NudgeOptions) {
    this.#settings = settings;
    this.#options = options;
  }

  /** An approval question is about to wait for you. */
  approvalWaits(what: string): void {
    this.#send("permission_prompt", `tern needs your approval: ${what}`);
  }

  /** A turn ended after `ms`: a nudge when that is at least the threshold. */
  turnEnded(ms: number, answer: string): void {
    if (ms < this.#settings.afterMs) return;
    const first = answer.trim().split("\n")[0] ?? "";
    this.#send("idle_prompt", `tern finished after ${Math.round(ms / 1000)} s${first ? `: ${first}` : ""}`);
  }

  /** Waits for the hooks and commands still running (tests, and exit). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }

  #send(kind: NudgeKind, raw: string): void {
    const message = plain(raw);
    const hooks = this.#options.hooks?.(kind, message);
    if (hooks) this.#track(hooks.catch(() => {}));
    if (this.#options.focus?.focused !== false) return;
    const escapes = this.#settings.channels.map((channel) => this.#escape(channel, message)).join("");
    if (escapes) this.#options.write(escapes);
    if (this.#settings.command) this.#track(this.#runCommand(this.#settings.command, kind, message));
  }

  #escape(channel: string, message: string): string {
    if (channel === "bell") return "\x07";
    const osc = channel === "osc9" ? `\x1b]9;${message}\x07` : `\x1b]777;notify;tern;${message}\x07`;
    // tmux keeps a pane's OSC to itself; its passthrough (allow-passthrough on) hands it to the terminal.
    return this.#settings.tmux ? `\x1bPtmux;${osc.replaceAll("\x1b", "\x1b\x1b")}\x1b\\` : osc;
  }

  async #runCommand(command: string, kind: NudgeKind, message: string): Promise<void> {
    const env = { ...childEnv(), TERN_NOTIFY_TYPE: kind, TERN_NOTIFY_MESSAGE: message };
    try {
      const child = new Deno.Command("bash", {
        args: ["-c", command],
        cwd: this.#options.root,
        clearEnv: true,
        env,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
      }).spawn();
      const writer = child.stdin.getWriter();
      const json = new TextEncoder().encode(JSON.stringify({ notification_type: kind, message }));
      // A command that does not read stdin may be gone before the write: its exit says how it went.
      await writer.write(json).then(() => writer.close()).catch(() => {});
      const { code, stderr } = await child.output();
      if (code !== 0) {
        const said = new TextDecoder().decode(stderr).trim().split("\n")[0] ?? "";
        this.#options.warn?.(`--notify-command failed with exit code ${code}${said ? `: ${said}` : ""}`);
      }
    } catch (error) {
      this.#options.warn?.(`--notify-command could not run: ${(error as Error).message}`);
    }
  }

  #track(running: Promise<void>): void {
    this.#running.add(running);
    running.finally(() => this.#running.delete(running));
  }
}

/** One line of printable text: control characters (which would end or forge the escape) become spaces. */
function plain(text: string): string {
  // deno-lint-ignore no-control-regex -- removing control characters is the point
  const line = text.replace(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, " ")
    .replace(/\s+/g, " ").trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}
