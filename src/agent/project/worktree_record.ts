/**
 * Which worktrees tern made, kept in tern's own bound state: `.tern/local/worktrees.json`, sealed (a file a
 * repository planted or a `git pull` wrote is never read), each entry naming its branch and the device and
 * inode of the folder tern made. Only a name in this record is ever listed, reused or removed, and only while
 * the folder at its place is still that folder: a link or a replacement planted there is left alone. Several
 * tern processes may make worktrees at once: every change runs under a lock on `.tern/local/worktrees/.lock`.
 */
import { join } from "../../fs/path.ts";
import { boundStatePath, stateDir } from "../state/tern_dir.ts";
import { openJson, stateSeal, writeSealedFile } from "../state/seal.ts";

/** The record's file name inside the state folder (also its seal's label). */
export const RECORD_FILE = "worktrees.json";
/** The folder, inside the state folder, that holds the worktrees. */
export const WORKTREES_DIR = "worktrees";

/** One worktree tern made. */
export interface WorktreeEntry {
  branch: string;
  /** The project root's place inside the worktree (`git rev-parse --show-prefix`; "" at its top). */
  prefix: string;
  dev: number;
  ino: number;
  /** When tern made it (ISO time). */
  created: string;
}

/** Name → entry. */
export type WorktreeRecord = Record<string, WorktreeEntry>;

/** The worktrees tern made in `root`, from the sealed record; empty when there is none or it fails its seal. */
export function readRecord(root: string): WorktreeRecord {
  const file = boundStatePath(root, RECORD_FILE);
  const seal = stateSeal(root);
  if (file === undefined || seal === undefined) return {};
  try {
    if (!Deno.lstatSync(file).isFile) return {};
    const data = openJson(seal, RECORD_FILE, Deno.readTextFileSync(file));
    const list = data?.worktrees;
    if (typeof list !== "object" || list === null || Array.isArray(list)) return {};
    return Object.fromEntries(Object.entries(list).filter(([, entry]) => validEntry(entry)));
  } catch {
    return {};
  }
}

function validEntry(entry: unknown): entry is WorktreeEntry {
  const x = entry as Partial<WorktreeEntry> | null;
  return typeof x === "object" && x !== null && typeof x.branch === "string" &&
    typeof x.prefix === "string" &&
    typeof x.dev === "number" && typeof x.ino === "number" && typeof x.created === "string";
}

/** Writes `record` sealed, through a temp file and a rename (a reader never sees half a file). */
export function writeRecord(root: string, record: WorktreeRecord): void {
  const dir = stateDir(root, "");
  const seal = stateSeal(root);
  if (seal === undefined) throw new Error("tern keeps no state in this project");
  writeSealedFile(seal, dir, RECORD_FILE, { version: 1, worktrees: record });
}

/** The real path of `.tern/local/worktrees/` (made when missing; each level checked by `stateDir`). */
export function worktreesFolder(root: string): string {
  return stateDir(root, WORKTREES_DIR);
}

/** Runs `body` holding the worktrees' lock: other tern processes of this project wait for it. */
export async function underWorktreeLock<T>(root: string, body: () => Promise<T>): Promise<T> {
  let folder: string;
  try {
    folder = worktreesFolder(root);
  } catch (error) {
    // No state folder of tern's own (a link, a file, one a repository brought): nowhere to keep worktrees.
    const why = error instanceof Error ? error.message : String(error);
    throw Object.assign(new Error(`no worktree can be made here: ${why}`), { name: "WorktreeError" });
  }
  const file = await Deno.open(join(folder, ".lock"), { read: true, write: true, create: true });
  try {
    await file.lock(true);
    return await body();
  } finally {
    file.close(); // closing lets go of the lock (the kernel does so for a killed process too)
  }
}

/**
 * Whether the folder at `path` is the one `entry` records: a plain folder (not a link) with that device and
 * inode, reached by no link on the way. "missing" when nothing is there.
 */
export function sameFolder(path: string, entry: WorktreeEntry): "same" | "missing" | "other" {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return "missing";
  }
  if (!info.isDirectory || info.dev !== entry.dev || info.ino !== entry.ino) return "other";
  try {
    return Deno.realPathSync(path) === path ? "same" : "other";
  } catch {
    return "other";
  }
}
