/**
 * The command line's front ends (the REPL, `-p`, stream-json) run here, below them: the front end is made
 * from the arguments first, then the core opens the project through the door (with the saved session the
 * command line chose), opens the session, and hands both to the front end to drive. `tern acp` drives
 * sessions of its own through the same door and `Project.newSession`.
 */
import type { AgentSession } from "../agent_session.ts";
import type { FirstSession } from "../log/session_choice.ts";
import { closeFileWall } from "../../fs/file_wall.ts";
import { openProject, type ProjectChoices } from "./open_project.ts";
import type { Project } from "./project.ts";

/** A front end of the command line, made from its arguments before anything starts. */
export interface FrontEnd {
  /** Which front end drives the session: written in its file's header; the REPL takes undo snapshots. */
  readonly kind: "repl" | "headless";
  /** `-c`, `-r [ID]`, `--fork`: the saved session to continue; absent: a new one. */
  readonly first?: FirstSession;
  /** Drives `session` of `project` until the front end is done; resolves with the exit code. */
  run(project: Project, session: AgentSession): Promise<number>;
}

/**
 * Opens `root` as `choices` say, opens the first session, and runs `frontEnd` on them; `atExit` collects
 * what must be stopped before the process exits.
 */
export async function runFrontEnd(
  root: string,
  choices: ProjectChoices,
  frontEnd: FrontEnd,
  atExit: (() => Promise<void>)[],
): Promise<number> {
  const headless = frontEnd.kind === "headless";
  atExit.push(closeFileWall);
  const project = await openProject(root, choices, frontEnd.first);
  // A headless run exits as soon as its answer is out: its servers are signalled, not waited for.
  atExit.push(() => project.close({ wait: !headless }));
  const session = await project.newSession({
    resume: project.resumed,
    frontEnd: frontEnd.kind,
    snapshots: !headless,
  });
  return await frontEnd.run(project, session);
}
