/** tern's own directory inside the project, `.tern/`: made on demand, kept out of the user's git status. */
import { join } from "node:path";
import { isInside } from "../fs/path_guard.ts";

/** The folder tern keeps its files in, relative to the project root. */
export const TERN_DIR = ".tern";

/**
 * Makes `.tern/<sub>` inside `root` (one level at a time, each checked to resolve inside the root, so a
 * planted symlink cannot lead a write outside) and returns its real path. `.tern/` gets a `.gitignore` of
 * `*` so the user's repository never sees it.
 */
export function ternDir(root: string, sub: string): string {
  let real = root;
  for (const part of [TERN_DIR, ...sub.split("/").filter(Boolean)]) {
    const next = join(real, part);
    try {
      Deno.mkdirSync(next);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    real = Deno.realPathSync(next);
    if (!isInside(root, real) || !Deno.statSync(real).isDirectory) {
      throw new Error(`${join(TERN_DIR, sub)} does not lead to a folder inside the project`);
    }
  }
  try {
    Deno.writeTextFileSync(join(root, TERN_DIR, ".gitignore"), "*\n", { createNew: true });
  } catch {
    // Already there (or the user replaced it): theirs to keep.
  }
  return real;
}
