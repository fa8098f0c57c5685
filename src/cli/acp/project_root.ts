/**
 * The project root of an ACP session: the `cwd` the editor sent, checked before anything else touches it.
 * It must be an absolute path to a readable directory at or below the directory `tern acp` was started in,
 * since that directory is what the process's permission flags (and so the sandbox) allow.
 */
import { isAbsolute } from "../../fs/path.ts";
import { isInside } from "../../fs/path_basics.ts";

/** A cwd that cannot be a project root; the message says why and what to do. */
export class ProjectRootError extends Error {}

/** The real path of `cwd` as a project root inside `allowed`; throws a ProjectRootError otherwise. */
export async function projectRoot(cwd: unknown, allowed: string): Promise<string> {
  if (typeof cwd !== "string" || !isAbsolute(cwd)) {
    throw new ProjectRootError(`cwd must be an absolute path (got ${JSON.stringify(cwd)})`);
  }
  const outside = () =>
    new ProjectRootError(
      `cwd ${cwd} is outside the directory tern acp was started in (${allowed}); start tern acp in the ` +
        "project, or in a folder above it",
    );
  let real: string;
  try {
    real = await Deno.realPath(cwd);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new ProjectRootError(`cwd ${cwd} does not exist`);
    if (error instanceof Deno.errors.NotCapable) throw outside();
    throw new ProjectRootError(`cwd ${cwd} cannot be read (${(error as Error).name})`);
  }
  if (real !== allowed && !isInside(allowed, real)) throw outside();
  try {
    if (!(await Deno.stat(real)).isDirectory) throw new ProjectRootError(`cwd ${cwd} is not a directory`);
    for await (const _ of Deno.readDir(real)) break;
  } catch (error) {
    if (error instanceof ProjectRootError) throw error;
    throw new ProjectRootError(`cwd ${cwd} cannot be read (${(error as Error).name})`);
  }
  return real;
}
