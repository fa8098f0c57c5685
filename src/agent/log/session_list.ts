/** The project's saved sessions: listed newest first (`/sessions`, `tern -r`), described in one line, pruned. */
import { join } from "../../fs/path.ts";
import { boundStatePath } from "../state/tern_dir.ts";
import { isSessionId } from "./_session_file_lines.ts";
import { stateSeal } from "../state/seal.ts";
import { SESSIONS_DIR } from "./session_file.ts";
import { parseSession } from "./session_load.ts";

/** One line of the session list. */
export interface SessionSummary {
  id: string;
  /** Last write (ms since epoch). */
  modifiedMs: number;
  startedAt: string;
  model: string;
  /** Which front end started it, when the file says. */
  frontEnd?: "repl" | "headless";
  /** User prompts so far. */
  turns: number;
  firstPrompt: string;
  bytes: number;
  /** Its name (`/rename`), if it has one. */
  name?: string;
}

/** The project's sessions, newest activity first. */
export async function listSessions(root: string): Promise<SessionSummary[]> {
  const dir = boundStatePath(root, "sessions");
  const seal = stateSeal(root);
  const out: SessionSummary[] = [];
  if (dir === undefined || seal === undefined) return out;
  try {
    for await (const item of Deno.readDir(dir)) {
      const id = item.name.slice(0, -".jsonl".length);
      if (!item.isFile || !item.name.endsWith(".jsonl") || !isSessionId(id)) continue;
      const path = join(dir, item.name);
      const info = await Deno.lstat(path);
      try {
        const loaded = parseSession(await Deno.readFile(path), path, root, seal);
        // The file's name is the session's id; a header naming another id is not this file's session.
        if (loaded.header.id !== id) continue;
        const prompts = loaded.entries.filter((entry) => entry.kind === "user" && entry.from !== "tern");
        const first = prompts[0];
        out.push({
          id,
          modifiedMs: info.mtime?.getTime() ?? 0,
          startedAt: loaded.header.startedAt,
          model: loaded.header.model,
          ...(loaded.header.frontEnd && { frontEnd: loaded.header.frontEnd }),
          turns: prompts.length,
          firstPrompt: first?.kind === "user" ? first.text : "",
          bytes: info.size,
          ...(loaded.name !== undefined && { name: loaded.name }),
        });
      } catch {
        // Not a session (or not readable): it is not listed, and never deleted by prune.
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out.sort((a, b) => b.modifiedMs - a.modifiedMs || b.id.localeCompare(a.id));
}

/** Removes sessions beyond the `keep` newest and any older than `maxAgeDays`; returns the ids removed. */
export async function pruneSessions(
  root: string,
  options: { keep?: number; maxAgeDays?: number; now?: number },
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  const sessions = await listSessions(root);
  for (const [i, session] of sessions.entries()) {
    const old = options.maxAgeDays !== undefined &&
      now - session.modifiedMs > options.maxAgeDays * 86_400_000;
    if (i < (options.keep ?? Infinity) && !old) continue;
    // Listed ids are names read from the folder itself (and checked): never a path built from file contents.
    await Deno.remove(join(root, SESSIONS_DIR, `${session.id}.jsonl`));
    removed.push(session.id);
  }
  return removed;
}

/** One line for a list or a picker: age, REPL or `-p`, prompts, the first prompt, model, id. */
export function describeSession(session: SessionSummary, now = Date.now()): string {
  const prompt = session.firstPrompt.replace(/\s+/g, " ").trim();
  const shown = prompt === ""
    ? "(no prompt)"
    : `"${prompt.length > 60 ? `${prompt.slice(0, 59)}…` : prompt}"`;
  const kind = session.frontEnd === "headless" ? "-p" : session.frontEnd === "repl" ? "REPL" : "?";
  const prompts = `${session.turns} prompt${session.turns === 1 ? "" : "s"}`;
  const name = session.name === undefined ? "" : `[${session.name}] `;
  return `${
    age(now - session.modifiedMs)
  } · ${kind} · ${prompts} · ${name}${shown} · ${session.model} · ${session.id}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
function age(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}
