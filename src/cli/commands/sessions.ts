/** Choosing a saved session: `-c`, `-r [ID]`, `/resume`, `/sessions`, and `tern sessions [prune]`. */
import {
  describeSession,
  listSessions,
  pruneSessions,
  type SessionSummary,
} from "../../agent/log/session_list.ts";
import { SessionError } from "../../agent/log/session_file.ts";
import { chooseSession } from "../../agent/log/session_choice.ts";
import type { SlashCommand, SlashOutcome } from "./types.ts";
import { recapLines } from "../render/recap.ts";
import { statusLine } from "../render/status_line.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import { typedText } from "../input/attachments.ts";

/**
 * One numbered line of the list; session text (prompts, model names) reaches no terminal raw, and a first
 * prompt shows as typed (without the files tern attached to it).
 */
function listLine(session: SessionSummary, i: number): string {
  const typed = { ...session, firstPrompt: typedText(session.firstPrompt) };
  return `${String(i + 1).padStart(2)}. ${terminalSafe(describeSession(typed))}`;
}

/** The list a person picks a session from: numbered lines, newest first. */
export function sessionLines(sessions: readonly SessionSummary[]): string[] {
  return sessions.map(listLine);
}

/**
 * Where nobody can be asked (headless): `-r` without an id is a SessionError naming the latest ids, so the
 * next run can name one.
 */
export function pickNone(sessions: SessionSummary[]): Promise<string | null> {
  const list = sessionLines(sessions).join("\n");
  return Promise.reject(new SessionError(`--resume needs a session id here; the latest ones:\n${list}`));
}

/** `/resume [ID|N]`: continue a saved session in place of the current conversation. */
export const resumeCommand: SlashCommand = {
  name: "/resume",
  help: "continue a saved session: /resume NAME, ID, or N from the /sessions list",
  run: async (ctx): Promise<SlashOutcome> => {
    if (ctx.args.length === 0) {
      await printSessions(ctx.session.root, (line) => ctx.screen.print(line));
      ctx.screen.print("Type /resume N (or an id) to continue one.", "dim");
      return "continue";
    }
    try {
      const loaded = await chooseSession(ctx.session.root, { resume: ctx.args[0] });
      await ctx.session.resume(loaded);
      const turns = loaded.entries.filter((entry) => entry.kind === "user").length;
      ctx.screen.print(`Resumed session ${loaded.header.id} (${turns} prompt(s)).`, "dim");
      for (const repair of loaded.repairs) ctx.screen.print(`  ${terminalSafe(repair)}`, "yellow");
      const live = ctx.session.liveEntries();
      for (const line of [...recapLines(live), statusLine(ctx.session.usage)]) ctx.screen.print(line, "dim");
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      ctx.screen.print(error.message, "yellow");
    }
    return "continue";
  },
};

/** `/sessions`: this project's saved sessions, newest first. */
export const sessionsCommand: SlashCommand = {
  name: "/sessions",
  help: "list this project's saved sessions (newest first)",
  run: async (ctx): Promise<SlashOutcome> => {
    await printSessions(ctx.session.root, (line) => ctx.screen.print(line));
    const id = ctx.session.sessionId;
    if (id) ctx.screen.print(`This conversation is session ${id}.`, "dim");
    return "continue";
  },
};

async function printSessions(root: string, print: (line: string) => void): Promise<void> {
  const sessions = await listSessions(root);
  if (sessions.length === 0) print("No saved sessions in this project yet.");
  sessions.slice(0, 20).forEach((session, i) => print(listLine(session, i)));
}

/** Writes all of `text` to stdout (a large export takes several writes). */
function writeAll(text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let done = 0; done < bytes.length;) done += Deno.stdout.writeSync(bytes.subarray(done));
}

/** `tern sessions` (list), `tern sessions prune [--keep N]` and `tern sessions export`; the exit code. */
export async function runSessionsCli(
  root: string,
  argv: string[],
  print: (line: string) => void,
): Promise<number> {
  const [action = "list", ...rest] = argv;
  if (action === "list") {
    await printSessions(root, print);
    return 0;
  }
  if (action === "prune") {
    const keepAt = rest.indexOf("--keep");
    const keep = keepAt >= 0 ? Number(rest[keepAt + 1]) : 20;
    if (!Number.isSafeInteger(keep) || keep < 0) {
      print("tern: --keep must be a whole number, e.g. tern sessions prune --keep 5");
      return 2;
    }
    const removed = await pruneSessions(root, { keep });
    print(`Removed ${removed.length} session(s); kept the ${keep} newest.`);
    return 0;
  }
  if (action === "export") {
    const { runSessionExport } = await import("../session_export/export_cli.ts");
    return await runSessionExport(root, rest, writeAll, (line) => console.error(line));
  }
  print(
    `tern: unknown sessions action '${action}'; use 'tern sessions', 'tern sessions prune --keep N' or ` +
      "'tern sessions export ID --format md|html|jsonl'",
  );
  return 2;
}
