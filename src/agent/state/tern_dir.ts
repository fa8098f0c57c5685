/**
 * tern's own state in the project: `.tern/local/` holds the sessions, the prompt history, the trust decision,
 * remembered approvals and the undo repository. A repository's author can commit any file, `.tern/local/`
 * included, so the folder counts as tern's only while it is bound to this directory on this machine:
 * `owner.json` inside records the device, inode and birth time of the project root and of `.tern/local/`
 * itself, facts that no clone or copy reproduces (git and `cp` make new folders). A folder whose record does
 * not match is never read: `claimState()` (claim_state.ts) moves it aside at start and says so once. The permission flags
 * need no change for this (`--allow-read=. --allow-write=.` already cover it, in a compiled binary too).
 */
import { join } from "../../fs/path.ts";
import { isInside } from "../../fs/path_basics.ts";

/** The folder tern keeps its files in, relative to the project root. */
export const TERN_DIR = ".tern";
/** tern's own state, relative to the root: bound to this directory (see the module comment). */
export const STATE_DIR = ".tern/local";
const OWNER_FILE = "owner.json";

/** Where one folder is: identity facts the kernel sets and a repository cannot choose. */
export interface Identity {
  dev: number;
  ino: number;
  /** Birth time in ms, where the file system records it. */
  birth: number | null;
}

/** What `.tern/local/` is now. */
export type StateStatus =
  | { kind: "none" }
  | { kind: "bound"; dir: string }
  /** There, but not made by tern in this directory (planted by the repository, or copied). */
  | { kind: "foreign"; why: string }
  /** `.tern` or `.tern/local` is not a plain folder (a link, a file): no state can be kept there. */
  | { kind: "unusable"; why: string };

/**
 * The identity facts of the root and of `.tern/local/` as they are now (what an owner record names), or
 * undefined when either is missing. A record naming these facts was written on this machine, here.
 */
export function boundIdentity(root: string): { root: Identity; dir: Identity } | undefined {
  const rootInfo = lstat(root);
  const dirInfo = lstat(join(root, STATE_DIR));
  return rootInfo && dirInfo?.isDirectory ? { root: identity(rootInfo), dir: identity(dirInfo) } : undefined;
}

/** Whether `record` names exactly these identity facts (`boundIdentity`'s). */
export function namesIdentity(record: unknown, facts: { root: Identity; dir: Identity }): boolean {
  const x = record as { root?: unknown; dir?: unknown } | null;
  return typeof x === "object" && x !== null && sameIdentity(x.root, facts.root) &&
    sameIdentity(x.dir, facts.dir);
}

function identity(info: Deno.FileInfo): Identity {
  return { dev: info.dev, ino: info.ino ?? 0, birth: info.birthtime?.getTime() ?? null };
}

function sameIdentity(a: unknown, b: Identity): boolean {
  const x = a as Partial<Identity> | null;
  return typeof x === "object" && x !== null && x.dev === b.dev && x.ino === b.ino && x.birth === b.birth;
}

function lstat(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `.tern/local/` under `root` exists and is tern's own. Never throws. */
export function stateStatus(root: string): StateStatus {
  const tern = lstat(join(root, TERN_DIR));
  if (tern === undefined) return { kind: "none" };
  if (!tern.isDirectory) return { kind: "unusable", why: `${TERN_DIR} is not a folder` };
  const dir = join(root, STATE_DIR);
  const local = lstat(dir);
  if (local === undefined) return { kind: "none" };
  if (!local.isDirectory) return { kind: "unusable", why: `${STATE_DIR} is not a folder` };
  const owner = lstat(join(dir, OWNER_FILE));
  if (!owner?.isFile || owner.size > 4096) {
    return { kind: "foreign", why: `${STATE_DIR} has no record of its owner` };
  }
  let record: { root?: unknown; dir?: unknown };
  try {
    record = JSON.parse(Deno.readTextFileSync(join(dir, OWNER_FILE)));
  } catch {
    return { kind: "foreign", why: `${STATE_DIR} has an unreadable owner record` };
  }
  const rootInfo = lstat(root);
  if (rootInfo === undefined) return { kind: "unusable", why: "the project root is gone" };
  if (!sameIdentity(record?.root, identity(rootInfo)) || !sameIdentity(record?.dir, identity(local))) {
    return { kind: "foreign", why: `${STATE_DIR} was not made by tern in this directory on this machine` };
  }
  return { kind: "bound", dir };
}

/** `.tern/local/<sub>` when the state folder is tern's own and it exists there; undefined otherwise. */
export function boundStatePath(root: string, sub = ""): string | undefined {
  const status = stateStatus(root);
  if (status.kind !== "bound") return undefined;
  const path = join(status.dir, sub);
  return sub === "" || lstat(path) !== undefined ? path : undefined;
}

/**
 * Makes `.tern/local/<sub>` (the state folder first, bound to this directory, when there is none) and
 * returns its real path. Each level must be a folder that resolves inside the root, so a planted link cannot
 * lead a write outside. Throws when the state folder is not tern's own (see claim_state.ts).
 */
export function stateDir(root: string, sub: string): string {
  let status = stateStatus(root);
  if (status.kind === "none") {
    createState(root);
    status = stateStatus(root);
  }
  if (status.kind !== "bound") {
    const why = status.kind === "none" ? `${STATE_DIR} could not be made` : status.why;
    throw new Error(`tern keeps no state in this project: ${why}`);
  }
  let real = status.dir;
  for (const part of sub.split("/").filter(Boolean)) {
    const next = join(real, part);
    try {
      Deno.mkdirSync(next);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    real = Deno.realPathSync(next);
    if (!isInside(status.dir, real) || !Deno.statSync(real).isDirectory) {
      throw new Error(`${join(STATE_DIR, sub)} does not lead to a folder inside the project`);
    }
  }
  return real;
}

/** What a `.tern/.gitignore` tern writes ignores: its state folder, a state folder being made, its spills. */
export const TERN_GITIGNORE =
  "# tern's own state and spills; the rest of .tern/ is the team's to commit\n/local/\n/local-*.tmp\n/tool-outputs/\n";

/** Makes `.tern/local/` with its owner record: built under a temporary name, then renamed into place. */
function createState(root: string): void {
  const tern = join(root, TERN_DIR);
  if (lstat(tern) === undefined) {
    Deno.mkdirSync(tern);
    // A `.tern/` tern made ignores only tern's own state and spills: the team's files there (settings.json,
    // commands/, agents/, skills/) stay committable. One the project brought keeps whatever it has.
    Deno.writeTextFileSync(join(tern, ".gitignore"), TERN_GITIGNORE);
  }
  const temp = join(tern, `local-${crypto.randomUUID()}.tmp`);
  Deno.mkdirSync(temp);
  try {
    const record = { version: 1, root: identity(Deno.lstatSync(root)), dir: identity(Deno.lstatSync(temp)) };
    Deno.writeTextFileSync(join(temp, OWNER_FILE), JSON.stringify(record) + "\n");
    Deno.writeTextFileSync(join(temp, ".gitignore"), "*\n");
    Deno.renameSync(temp, join(root, STATE_DIR)); // a rename keeps the folder's inode and birth time
  } catch {
    Deno.removeSync(temp, { recursive: true }); // another tern made it first, or the write failed
  }
}
