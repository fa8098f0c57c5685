/**
 * The protected paths of one sandboxed command: what exists is mounted read-only; what is missing but must
 * not be created (`.envrc`, `.mcp.json`, `.github/workflows`, `.tern`) is covered by an empty read-only
 * placeholder, whose mount point bwrap leaves on the host, so it is removed again after the command.
 */
import { join } from "node:path";
import { SANDBOX_NOT_CREATED, sandboxReadOnlyPaths } from "../../config/protected_paths.ts";

/** What the sandbox needs, and the clean-up to run when the command has ended. */
export interface GuardedPaths {
  readOnly: string[];
  guardMissing: { files: string[]; dirs: string[] };
  /** Removes the placeholders bwrap created (still empty), and parents that existed only for them. */
  cleanUp(): Promise<void>;
}

/** lstat, or null where nothing is (synchronous: a few dozen of these, every command, cost microseconds). */
function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Not empty, or gone: not ours to remove then.
  }
}

/**
 * What is at `name` below the root (file, directory, anything else, or nothing), as lstat says: one listing
 * of the root answers the top-level names (most of the list), an lstat the deeper ones whose first level is
 * there.
 */
function lookup(root: string): (name: string) => "file" | "dir" | "other" | null {
  const top = new Map<string, Deno.DirEntry>();
  try {
    for (const entry of Deno.readDirSync(root)) top.set(entry.name, entry);
  } catch {
    // An unreadable root: everything is "nothing", as lstat would say.
  }
  return (name) => {
    const slash = name.indexOf("/");
    const first = top.get(slash < 0 ? name : name.slice(0, slash));
    if (first === undefined) return null;
    if (slash >= 0) {
      // As lstat does, through a first level that is a link (a .git linked elsewhere keeps its config guarded).
      const info = lstatOrNull(join(root, name));
      return info === null ? null : info.isFile ? "file" : info.isDirectory ? "dir" : "other";
    }
    return first.isSymlink ? "other" : first.isFile ? "file" : first.isDirectory ? "dir" : "other";
  };
}

/** The guarded paths of `root` now. */
export async function guardedPaths(root: string): Promise<GuardedPaths> {
  const at = lookup(root);
  // Only what is there as a plain file or folder: bwrap refuses a source under a file, and a link is not
  // what it names (whatever it points at inside the project is listed on its own).
  const readOnly: string[] = [];
  for (const name of await sandboxReadOnlyPaths(root)) {
    const kind = at(name);
    if (kind === "file" || kind === "dir") readOnly.push(name);
  }
  const files: string[] = [];
  const dirs: string[] = [];
  const createdParents: string[] = [];
  for (const name of SANDBOX_NOT_CREATED) {
    if (at(name) !== null) continue;
    const parent = name.includes("/") ? name.slice(0, name.lastIndexOf("/")) : "";
    const parentKind = parent === "" ? null : at(parent);
    // A parent that is a file (or a link) cannot hold a mount point: nothing can be created there anyway.
    if (parentKind !== null && parentKind !== "dir") continue;
    (name.includes(".") && !name.endsWith("workflows") && name !== ".tern" ? files : dirs).push(name);
    if (parent !== "" && parentKind === null) createdParents.push(parent);
  }
  const cleanUp = () => {
    for (const name of [...files, ...dirs]) {
      const path = join(root, name);
      const info = lstatOrNull(path);
      // Only what is still the empty placeholder: anything else is not ours to remove.
      if (info?.isFile && info.size === 0) removeQuietly(path);
      if (info?.isDirectory) removeQuietly(path); // fails unless empty
    }
    for (const parent of createdParents) removeQuietly(join(root, parent));
    return Promise.resolve();
  };
  return { readOnly, guardMissing: { files, dirs }, cleanUp };
}
