/**
 * What a tern that died mid-command (kill -9, a crash) left in the project, undone by the next tern: at its
 * start and before each sandboxed command. Its placeholders are put away (unless another living tern relies
 * on them), the files git would read that no mount covered are removed, nested repositories are tamed
 * (git_surface.ts), and no empty folder is left at a protected file's name (`.env`, `AGENTS.md`...).
 */
import { join } from "../../fs/path.ts";
import { isEnvFileName, SANDBOX_PROTECTED } from "../../config/protected_paths.ts";
import { stowPlaceholder } from "./placeholder_pool.ts";
import { undoGitSurface } from "./git_surface.ts";
import {
  type Claim,
  forgetDead,
  heldByOthers,
  type OtherClaims,
  otherClaims,
  underLock,
} from "./sandbox_claims.ts";
import { existsNoFollow } from "../../fs/path_basics.ts";

/**
 * How long a background command may outlive its tern: its watchdog looks every 2 s and gives it 1 s to end.
 * Until then its sandbox may still rely on its placeholders.
 */
export const ORPHAN_GRACE_MS = 4500;

/** When each gone process's claim file was first seen gone (by this process). */
const seenGone = new Map<string, number>();

/** Removes those of `names` (missing at the start, and not coverable by a mount) that exist now; says which. */
export function removeAppeared(root: string, names: string[]): string[] {
  const removed: string[] = [];
  for (const name of names) {
    if (!existsNoFollow(join(root, name))) continue;
    try {
      Deno.removeSync(join(root, name), { recursive: true });
    } catch {
      // Gone meanwhile.
    }
    removed.push(`removed ${name}`);
  }
  return removed;
}

/** Undoes one claim of a gone process (placeholders `held` by a living command stay). */
function undoClaim(root: string, claim: Claim, held: (name: string) => boolean): string[] {
  for (const name of claim.placeholders) if (!held(name)) stowPlaceholder(root, join(root, name));
  const said = removeAppeared(root, claim.uncovered);
  if (claim.git !== "file") {
    said.push(...undoGitSurface(root, claim.git === "dir" ? claim.surface : undefined));
  }
  return said;
}

/**
 * Undoes the claims of gone processes (under the lock); one whose background command may still run is left
 * for a later look (ORPHAN_GRACE_MS). Returns one phrase per change.
 */
export function undoDeadClaims(
  root: string,
  dead: OtherClaims["dead"],
  held: (name: string) => boolean,
): string[] {
  const said: string[] = [];
  const now = Date.now();
  for (const { file, claims } of dead) {
    const first = seenGone.get(file) ?? now;
    seenGone.set(file, first);
    if (claims.some((claim) => claim.background) && now - first < ORPHAN_GRACE_MS) continue;
    for (const claim of claims) said.push(...undoClaim(root, claim, held));
    forgetDead(file);
    seenGone.delete(file);
  }
  return said;
}

/** Empty folders at protected files' names that no living command relies on: put away. */
function sweepFileNames(root: string, held: (name: string) => boolean): string[] {
  const said: string[] = [];
  // Only under the root's own folders can there be an empty folder at those names (`.vscode/tasks.json` is
  // under `.vscode`): one listing, not a failed stat per name at every start.
  const folders = new Set<string>();
  for (const entry of Deno.readDirSync(root)) if (entry.isDirectory) folders.add(entry.name);
  const names = new Set<string>(SANDBOX_PROTECTED.files.filter((name) => folders.has(name.split("/")[0])));
  for (const name of folders) if (isEnvFileName(name)) names.add(name);
  for (const name of names) {
    const path = join(root, name);
    if (held(name) || !isEmptyFolder(path)) continue;
    stowPlaceholder(root, path);
    if (!existsNoFollow(path)) said.push(`put away the empty folder ${name}`);
  }
  return said;
}

function isEmptyFolder(path: string): boolean {
  try {
    if (!Deno.lstatSync(path).isDirectory) return false;
    for (const _ of Deno.readDirSync(path)) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * At start: undoes what gone tern processes left (waiting out a background command of theirs that may still
 * run), then puts away empty folders at protected files' names. One line for the user, or undefined.
 */
export async function sweepSandboxLeftovers(root: string): Promise<string | undefined> {
  const said: string[] = [];
  const look = () =>
    underLock(root, () => {
      const others = otherClaims(root);
      const living = heldByOthers(others);
      const held = (name: string) => living.has(name);
      said.push(...undoDeadClaims(root, others.dead, held));
      return others.dead.some(({ file }) => seenGone.has(file));
    });
  try {
    if (look()) {
      await new Promise((resolve) => setTimeout(resolve, ORPHAN_GRACE_MS));
      look();
    }
    said.push(...underLock(root, () => {
      const living = heldByOthers(otherClaims(root));
      return sweepFileNames(root, (name) => living.has(name));
    }));
  } catch {
    // A project tern cannot look into (or one gone meanwhile): nothing to sweep.
  }
  if (said.length === 0) return undefined;
  return `a tern that ended mid-command left changes, undone: ${said.join(", ")}`;
}
