/**
 * The `diff` package, loaded when an edit or a write is first planned rather than at start: a run that
 * changes no file never spends its memory (3.5 MB, a sixteenth of a one-turn run; issue 18). Whatever
 * diffs (the edit tools' line counts, the diff views of their previews) follows such a plan, so it finds
 * the package loaded.
 */
import { npmPackage } from "./npm.ts";

type DiffPackage = Awaited<ReturnType<typeof npmPackage<"diff">>>;

let loaded: DiffPackage | undefined;

/** Loads the package (once); every later call resolves at once. */
export async function loadDiff(): Promise<DiffPackage> {
  return loaded ??= await npmPackage("diff");
}

/** The package; throws, naming the mistake, when used before `loadDiff()`. */
export function diffPackage(): DiffPackage {
  if (loaded === undefined) throw new Error("the diff package was used before loadDiff() loaded it");
  return loaded;
}
