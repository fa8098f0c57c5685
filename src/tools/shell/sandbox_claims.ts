/**
 * Many tern processes in one project: each sandboxed command's placeholders (and what it must undo should
 * tern die) are claimed in a file of the process's own, under one project-wide lock (flock), so no process
 * moves a placeholder another one's sandbox has mounted. A process holds an exclusive lock on its claim file
 * for its whole life: a claim file whose lock can be taken belongs to a process that is gone, and the next
 * tern to look undoes what it left (placeholders put away, files git would read removed, nested repositories
 * tamed). The files live in tern's state folder (`.tern/local/sandbox`, read-only inside the sandbox); where a
 * project has none, claims are kept in this process only. Cost: an open, a lock, a write per command.
 */
import { join } from "../../fs/path.ts";
import type { GitSurface } from "./git_surface.ts";

/** What one running command relies on and what must be undone when it ends (plain data, kept as JSON). */
export interface Claim {
  /** Placeholders (relative to the root) this command mounts, its own or another command's. */
  placeholders: string[];
  /** Missing names no mount covers: removed if they appear. */
  uncovered: string[];
  /** The git surface before the command (git_surface.ts); absent when `.git` was no folder. */
  surface?: GitSurface;
  /** Whether `.git` was a folder before the command (a repository made by it is then its own). */
  git: "dir" | "file" | "none";
  /** A background command: after tern dies it lives on for a moment (its watchdog ends it). */
  background: boolean;
}

/** Where a project's claim files are, or undefined where it keeps none; may throw (taken as none). */
type ClaimsLocator = (root: string) => string | undefined;

interface Claims {
  dir: string;
  lock: Deno.FsFile;
  mine: Deno.FsFile;
  name: string;
  held: Map<number, Claim>;
}

let locate: ClaimsLocator | undefined;
const projects = new Map<string, Claims>();
let nextId = 0;

/**
 * Turns cross-process claims on for this process: `where` says where a project's claims folder is; undefined
 * turns them off, removing this process's claim files (at exit: nothing of its own is running any more).
 */
export function useSandboxClaims(where: ClaimsLocator | undefined): void {
  locate = where;
  for (const claims of projects.values()) {
    try {
      Deno.removeSync(join(claims.dir, claims.name));
    } catch {
      // Removed by another tern that took this one for gone.
    }
    claims.mine.close();
    claims.lock.close();
  }
  projects.clear();
}

function claimsOf(root: string): Claims | null {
  let claims: Claims | null = projects.get(root) ?? null;
  if (claims) return claims;
  try {
    const dir = locate?.(root);
    if (dir !== undefined) {
      const lock = Deno.openSync(join(dir, "lock"), { read: true, write: true, create: true });
      const name = `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}.json`;
      const mine = createLocked(lock, join(dir, name));
      claims = { dir, lock, mine, name, held: new Map() };
    }
  } catch {
    // No state folder of tern's own here: claims stay in this process.
  }
  // A failure is not kept: the state folder may be claimed (or made) later in this process.
  if (claims) projects.set(root, claims);
  return claims;
}

/**
 * Creates this process's claim file and locks it, both under the project's lock: the others read claim
 * files only under that lock, so none ever finds this one not yet locked, takes it for a gone process's
 * and removes it (this process's claims would then go to a file nobody reads, and its mounted placeholders
 * be put away under its running commands).
 */
function createLocked(lock: Deno.FsFile, path: string): Deno.FsFile {
  lock.lockSync(true);
  try {
    const mine = Deno.openSync(path, { read: true, write: true, createNew: true });
    mine.lockSync(true); // held until this process ends: the kernel lets go of it even after a kill -9
    return mine;
  } finally {
    lock.unlockSync();
  }
}

/** Runs `body` under the project's lock (other tern processes wait); without claims, just runs it. */
export function underLock<T>(root: string, body: () => T): T {
  const claims = claimsOf(root);
  if (!claims) return body();
  claims.lock.lockSync(true);
  try {
    return body();
  } finally {
    claims.lock.unlockSync();
  }
}

function writeMine(claims: Claims): void {
  const text = new TextEncoder().encode(JSON.stringify([...claims.held.values()]));
  claims.mine.truncateSync(0);
  claims.mine.seekSync(0, Deno.SeekMode.Start);
  let done = 0;
  while (done < text.length) done += claims.mine.writeSync(text.subarray(done));
}

/** Records `claim` for this process (under the lock); resolves with its id, to give it up by. */
export function addClaim(root: string, claim: Claim): number {
  const id = ++nextId;
  const claims = claimsOf(root);
  if (claims) {
    claims.held.set(id, claim);
    writeMine(claims);
  }
  return id;
}

/** Gives up claim `id` (under the lock). */
export function dropClaim(root: string, id: number): void {
  const claims = claimsOf(root);
  if (claims?.held.delete(id)) writeMine(claims);
}

/** The claims of other processes, living (`alive`) and gone (`dead`, with the file to remove once undone). */
export interface OtherClaims {
  alive: Claim[];
  dead: { file: string; claims: Claim[] }[];
}

/** Reads every other process's claim file (under the lock). */
export function otherClaims(root: string): OtherClaims {
  const found: OtherClaims = { alive: [], dead: [] };
  const claims = claimsOf(root);
  if (!claims) return found;
  for (const entry of Deno.readDirSync(claims.dir)) {
    if (!entry.isFile || entry.name === claims.name || !entry.name.endsWith(".json")) continue;
    const file = join(claims.dir, entry.name);
    let other: Deno.FsFile;
    try {
      other = Deno.openSync(file, { read: true });
    } catch {
      continue;
    }
    try {
      const gone = other.tryLockSync(true);
      let held: Claim[] = [];
      try {
        const parsed = JSON.parse(new TextDecoder().decode(Deno.readFileSync(file)));
        if (Array.isArray(parsed)) held = parsed.filter(isClaim);
      } catch {
        // Unreadable: a living process writes it only under the lock, so this is a dead one's torn write.
      }
      if (gone) found.dead.push({ file, claims: held });
      else found.alive.push(...held);
    } finally {
      other.close();
    }
  }
  return found;
}

function isClaim(value: unknown): value is Claim {
  const claim = value as Partial<Claim> | null;
  return typeof claim === "object" && claim !== null && Array.isArray(claim.placeholders) &&
    claim.placeholders.every((name) => typeof name === "string") && Array.isArray(claim.uncovered) &&
    claim.uncovered.every((name) => typeof name === "string");
}

/** The placeholders (relative) that living claims of other processes rely on. */
export function heldByOthers(others: OtherClaims): Set<string> {
  return new Set(others.alive.flatMap((claim) => claim.placeholders));
}

/** The claims folder relative to the root (hidden inside the sandbox: no command may lock its files). */
export function claimsFolder(root: string): string[] {
  const claims = claimsOf(root);
  return claims ? [claims.dir.slice(root.length + 1)] : [];
}

/** Removes the file of a gone process's claims (under the lock, once what they left is undone). */
export function forgetDead(file: string): void {
  try {
    Deno.removeSync(file);
  } catch {
    // Removed by another tern meanwhile.
  }
}
