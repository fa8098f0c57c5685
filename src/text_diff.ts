/**
 * The `diff` package, loaded only for a diff view a person is about to see (an approval, an edit shown in the
 * REPL) rather than at start: a run that shows no diff never spends its memory (3.5 MB, a sixteenth of a
 * one-turn run) or its 7 ms (issue 18). The edit tools count changed lines themselves (line_delta.ts).
 */
import { npmPackage } from "./npm.ts";

type DiffPackage = Awaited<ReturnType<typeof npmPackage<"diff">>>;

let loaded: DiffPackage | undefined;
let failure: string | undefined;

/** Loads the package (once); every later call resolves at once. Rejects, naming why, when it cannot. */
export async function loadDiff(): Promise<DiffPackage> {
  try {
    return loaded ??= await npmPackage("diff");
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    throw error;
  }
}

/** The package once `loadDiff()` has loaded it; undefined before, or when it could not. */
export function loadedDiff(): DiffPackage | undefined {
  return loaded;
}

/** Why the package could not be loaded, once a `loadDiff()` failed. */
export function diffFailure(): string | undefined {
  return failure;
}
