/**
 * The one file wall: every write of the file tools goes through tern's file helper (file_helper.ts), never a
 * weaker way. A project opened by the core door turns the long-lived helper on for the process; a helper that
 * dies is restarted once, and said; after a second death, or where it cannot run at all (no perl), writes are
 * refused in one line. Reads keep their own checked path (path_guard.ts) when the helper is gone.
 * Code that never opened a project (unit tests of the tools) writes through a helper started for that one
 * write: the same program and the same checks, only not kept.
 */
import { FileHelper } from "./file_helper.ts";
import { after, type Timer } from "../timer.ts";
import { ToolError } from "./tool_error.ts";

/** Why writes are refused, in one line, once the wall cannot hold. */
const NO_PERL =
  "file writes are refused: tern's file helper (perl) cannot run on this machine, and tern writes files only " +
  "through it (install perl to write files; read and search tools still work)";
const DIED_TWICE =
  "file writes are refused: tern's file helper stopped twice in this session (restart tern to write files)";

interface Wall {
  /** The running helper, or null while none runs. */
  helper: FileHelper | null;
  /** The timer of the start not yet made (see openFileWall). */
  deferred?: Timer;
  restarts: number;
  /** Told once of a restart and of a refusal (stderr, through the project's front end). */
  onNotice: (line: string) => void;
  /** Set once writes are refused for good (the helper cannot run, or died twice). */
  refused?: string;
}

let wall: Wall | undefined;

/**
 * Turns the long-lived helper on for this process; `onNotice` hears of a restart or a refusal. A second call
 * keeps the running helper. Its start (a process spawn, some milliseconds of this thread) is made at the
 * next turn of the event loop, while the door waits on the project's files, or at once by a first use.
 */
export function openFileWall(onNotice: (line: string) => void): void {
  if (wall) {
    wall.onNotice = onNotice;
    return;
  }
  wall = { helper: null, restarts: 0, onNotice };
  wall.deferred = after(0, startHelper);
}

function startHelper(): void {
  if (!wall || wall.deferred === undefined) return;
  wall.deferred.clear();
  wall.deferred = undefined;
  wall.helper = FileHelper.start();
  if (wall.helper === null) refuse(NO_PERL);
  else probe(wall.helper);
}

/** Checks in the background that the helper answers; one that cannot (no perl) turns writes off, said. */
function probe(helper: FileHelper): void {
  helper.identity("/", ".").catch(async () => {
    // Killed by a signal, it did run: the next use restarts it. Ended with a code, perl could not run.
    const status = await helper.exited.catch(() => undefined);
    if (status?.signal) return;
    if (wall?.helper === helper && wall.restarts === 0) {
      wall.helper = null;
      refuse(NO_PERL);
    }
  });
}

function refuse(line: string): void {
  if (!wall || wall.refused) return;
  wall.refused = line;
  wall.onNotice(line);
}

/**
 * The running helper for a check or a read; null when the wall is not open, or the helper is gone (the
 * caller then makes its own checked read). A helper found dead is restarted once, and said.
 */
export function fileHelper(): FileHelper | null {
  startHelper(); // a first use before the deferred start
  if (!wall || wall.refused) return null;
  if (wall.helper?.alive) return wall.helper;
  if (wall.restarts > 0) {
    wall.helper = null;
    refuse(DIED_TWICE);
    return null;
  }
  wall.restarts++;
  wall.helper = FileHelper.start();
  if (wall.helper === null) {
    refuse(NO_PERL);
    return null;
  }
  wall.onNotice("tern's file helper stopped; it was restarted (file writes go on through it)");
  return wall.helper;
}

/**
 * Runs one create request (atomic_write.ts's steps) through the wall: the long-lived helper when the wall is
 * open, else a helper for this request alone. Throws a ToolError, worded for the model, when it cannot hold.
 */
export async function createThroughWall(
  args: string[],
  data: Uint8Array,
): Promise<{ code: number; created: string[] }> {
  if (!wall) return await createOnce(args, data);
  const helper = fileHelper();
  if (helper === null) throw new ToolError(`${wall.refused ?? DIED_TWICE}.`);
  try {
    return await helper.create(args, data);
  } catch {
    // The helper died under this request: what it did is unknown, so the write is reported as failed.
    fileHelper(); // restarts it now (once), and says so
    throw new ToolError(
      "the write did not complete: tern's file helper stopped during it. Read the file to see its state, " +
        "then try again.",
    );
  }
}

async function createOnce(args: string[], data: Uint8Array): Promise<{ code: number; created: string[] }> {
  const once = FileHelper.start();
  if (once === null) throw new ToolError(`${NO_PERL}.`);
  try {
    return await once.create(args, data);
  } catch {
    throw new ToolError(`${NO_PERL}.`);
  } finally {
    await once.close();
  }
}

/** Ends the helper (at exit, or at the end of a test that opened the wall); it can be opened again. */
export async function closeFileWall(): Promise<void> {
  wall?.deferred?.clear();
  const helper = wall?.helper;
  wall = undefined;
  await helper?.close();
}
