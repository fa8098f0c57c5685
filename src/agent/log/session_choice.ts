/**
 * Choosing a saved session to continue: the latest (`-c`), one named, numbered or by id (`-r ID`), or one
 * picked from the list (`-r` alone, asked through the front end), and `--fork`'s copy of it.
 */
import { listSessions, type SessionSummary } from "./session_list.ts";
import { type LoadedSession, SessionError } from "./session_file.ts";
import { loadSession } from "./session_load.ts";
import { findSession } from "./session_names.ts";
import { forkSession } from "./session_fork.ts";

/** How a run asked for a session: the latest (`continue`), an id, or "" to pick one from a list. */
export interface SessionChoice {
  continue?: boolean;
  resume?: string;
  /**
   * The REPL asks: `continue` takes the latest REPL conversation, passing over `-p` runs (the latest of
   * either when there is no REPL one). Without it, the latest of either.
   */
  repl?: boolean;
}

/**
 * Asks a person to pick one of `sessions` (newest first, at most 20): what they typed (a name, a list number
 * or an id), or null for none. A front end nobody can be asked at throws a SessionError naming the ids.
 */
export type SessionPicker = (sessions: SessionSummary[]) => Promise<string | null>;

/** What the command line chose to continue: the choice, `--fork`, and how to ask when it names none. */
export interface FirstSession extends SessionChoice {
  fork?: boolean;
  pick: SessionPicker;
}

/**
 * Loads the session the user chose. `resume: ""` asks through `pick`. A name, a number from the list (newest
 * first), an id or an id's unique prefix picks one (session_names.ts).
 */
export async function chooseSession(
  root: string,
  choice: SessionChoice,
  pick?: SessionPicker,
): Promise<LoadedSession> {
  const sessions = await listSessions(root);
  if (sessions.length === 0) throw new SessionError("no saved session in this project yet");
  const latest = (choice.repl && sessions.find((session) => session.frontEnd !== "headless")) || sessions[0];
  let id = choice.continue ? latest.id : choice.resume ?? "";
  if (id === "") {
    const answer = (await pick?.(sessions.slice(0, 20)))?.trim();
    if (!answer) throw new SessionError("no session chosen");
    id = answer;
  }
  const found = findSession(sessions, id);
  if ("problem" in found) throw new SessionError(found.problem);
  return await loadSession(root, found.id);
}

/**
 * The session a run starts from (`-c`, `-r`), or with `--fork` a copy of it, said through `warn`; the
 * original is left as it is. The copy carries what loading the original left out, which the door says with
 * the session's other start-up lines.
 */
export async function chooseFirstSession(
  root: string,
  first: FirstSession,
  warn: (line: string) => void,
): Promise<LoadedSession> {
  const loaded = await chooseSession(root, first, first.pick);
  if (!first.fork) return loaded;
  const copy = forkSession(root, loaded);
  warn(`forked session ${loaded.header.id} into ${copy.header.id}; the original is left as it is`);
  const repairs = loaded.repairs.map((repair) => `${repair} (in the original, ${loaded.header.id})`);
  return { ...copy, repairs: [...repairs, ...copy.repairs] };
}
