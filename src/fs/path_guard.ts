/** Resolves model-given paths inside the project root and refuses everything else, before touching it. */

import { join, relative, resolve, sep } from "./path.ts";
import { ToolError } from "./tool_error.ts";
import { changedError, isInside, showPath } from "./path_basics.ts";
import { refuseSecretEnv } from "./secret_env.ts";
import { type OpenedFile, openNoBlock, readThroughHelper, verifyOpened } from "./opened_file.ts";

/** Longest path accepted, in characters. */
export const MAX_PATH_CHARS = 4096;

/** Largest file read or edited, in bytes. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Symlinks followed while resolving one path before giving up (as Linux's ELOOP does). */
const MAX_SYMLINK_HOPS = 40;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** A path proven to be inside the root, with every symlink resolved. */
export interface GuardedPath {
  /** Absolute real path (symlinks resolved); for a missing path, its real parent plus the missing names. */
  real: string;
  /** `real` relative to the root ("." for the root itself): the name to show in messages. */
  rel: string;
  /** lstat of `real` when it exists (never a symlink: those were resolved), else null. */
  info: Deno.FileInfo | null;
}

/** A text file read through the guard. */
export interface TextFile extends GuardedPath {
  info: Deno.FileInfo;
  /** The decoded text, without the byte-order mark. */
  text: string;
  /** True when the file starts with a UTF-8 byte-order mark (to be written back on edits). */
  bom: boolean;
  /** Size in bytes on disk. */
  bytes: number;
}

/** The refusal of a path that is, or leads, outside the project root. */
export class OutsideRootError extends ToolError {
  constructor(message: string) {
    super(message, "outside_root");
  }
}

function outside(path: string): ToolError {
  return new OutsideRootError(
    `${showPath(path)} is outside the project root: only paths inside the project can be used ` +
      `(give them relative to the project root).`,
  );
}

/** Checks the raw text of a path before any resolution. */
function checkRaw(path: string): void {
  if (path.length === 0) throw new ToolError(`path is empty: give a path relative to the project root.`);
  if (path.includes("\0")) throw new ToolError(`${showPath(path)} contains a NUL byte: not a valid path.`);
  if (path.length > MAX_PATH_CHARS) {
    throw new ToolError(
      `path is ${path.length} characters long; the limit is ${MAX_PATH_CHARS}: use a shorter path.`,
    );
  }
}

/**
 * lstat, or null where nothing is. Synchronous, as the rest of the resolution: each is microseconds on a
 * local disk, where an async call costs a hop to another thread and back, several times per tool call.
 */
function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** What a failed file operation says to the model: its kind, never its message (absolute paths, Deno's advice). */
function describeFailure(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (error instanceof Deno.errors.NotFound || code === "ENOENT") {
    return "it was not found (it may have just changed)";
  }
  if (code === "ELOOP" || (error instanceof Error && /os error 40\b/.test(error.message))) {
    return "it was replaced by a symbolic link while being opened";
  }
  if (error instanceof Deno.errors.NotADirectory || code === "ENOTDIR") return "a parent is not a directory";
  if (error instanceof Deno.errors.IsADirectory || code === "EISDIR") return "it is a directory";
  if (
    error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied ||
    code === "EACCES" || code === "EPERM"
  ) return "permission denied (it may lead outside the project)";
  if (error instanceof Deno.errors.AlreadyExists || code === "EEXIST") return "it already exists";
  return `the file system refused (${code ?? (error instanceof Error ? error.name : "error")})`;
}

/**
 * Runs `task`; an unexpected error becomes a ToolError naming `shown` (a path the model gave, or one
 * relative to the root) and the kind of failure only: the original message may hold an absolute path outside
 * the root, reached through a path swapped under us, and Deno's "run again with --allow-read" advice.
 */
export async function withCleanErrors<T>(shown: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`${showPath(shown)}: ${describeFailure(error)}.`);
  }
}

/**
 * Resolves `path` component by component from the root, following symlinks by hand, so nothing outside
 * the root is ever stat'ed or read, even to check it; a dangling symlink is followed to where it would
 * create a file. `~` and `%2e` are ordinary names here. Errors never show what lies outside the root.
 */
export async function resolvePath(root: string, path: string): Promise<GuardedPath> {
  checkRaw(path);
  return await withCleanErrors(path, () => Promise.resolve(resolveChecked(root, path)));
}

function resolveChecked(root: string, path: string): GuardedPath {
  const lexical = resolve(root, path);
  if (!isInside(root, lexical)) throw outside(path);
  const parts = relative(root, lexical).split(sep).filter((part) => part !== "");
  let current = root;
  let currentInfo: Deno.FileInfo | null = null;
  let hops = 0;
  while (parts.length > 0) {
    const next = join(current, parts.shift()!);
    const info = lstatOrNull(next);
    if (info === null) {
      const real = join(next, ...parts);
      return { real, rel: relative(root, real), info: null };
    }
    if (info.isSymlink) {
      if (++hops > MAX_SYMLINK_HOPS) {
        throw new ToolError(`${showPath(path)}: too many levels of symbolic links.`);
      }
      // `current` is already real, so resolving the link text against it lexically is exact.
      const target = resolve(current, Deno.readLinkSync(next));
      if (!isInside(root, target)) throw outside(path);
      parts.unshift(...relative(root, target).split(sep).filter((part) => part !== ""));
      current = root;
      currentInfo = null;
      continue;
    }
    if (parts.length > 0 && !info.isDirectory) {
      const file = relative(root, next);
      throw new ToolError(
        `${showPath(path)}: "${file}" is a file, not a directory, so nothing can be inside it.`,
      );
    }
    current = next;
    currentInfo = info;
  }
  // Belt and braces: the kernel's own answer must agree that the path is inside.
  if (!isInside(root, Deno.realPathSync(current))) throw outside(path);
  return {
    real: current,
    rel: relative(root, current) || ".",
    info: currentInfo ?? Deno.lstatSync(current),
  };
}

/** Names what a non-regular, non-directory file is, for refusals. */
function kindOf(info: Deno.FileInfo): string {
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  if (info.isDirectory) return "a directory";
  if (info.isSymlink) return "a symbolic link";
  return "a regular file";
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/**
 * Resolves a path that must be an existing regular file under the size limit; refuses before opening.
 * Secret env files (`.env`, `.env.local`, ...) are refused here, so every reader of file contents is covered.
 */
export async function resolveForRead(
  root: string,
  path: string,
): Promise<GuardedPath & { info: Deno.FileInfo }> {
  const guarded = await resolvePath(root, path);
  const { info, rel } = guarded;
  refuseSecretEnv(path, guarded.real, rel);
  if (STATE_KEY.test(rel.replaceAll("\\", "/"))) {
    // The key that seals tern's state (agent/state_seal.ts): a model that read it could forge trust.
    throw new ToolError(`${showPath(rel)} is the key of tern's own state: no tool may read it.`, "refused");
  }
  if (info === null) {
    throw new ToolError(`${showPath(path)} not found: check the path with list_dir.`, "not_found");
  }
  if (info.isDirectory) throw new ToolError(`${showPath(rel)} is a directory: use list_dir.`);
  if (!info.isFile) throw new ToolError(`${showPath(rel)} is not a regular file (it is ${kindOf(info)}).`);
  if (info.size > MAX_FILE_BYTES) {
    throw new ToolError(
      `${showPath(rel)}: file is ${megabytes(info.size)} MB; over the 10 MB limit.`,
      "too_large",
    );
  }
  return { ...guarded, info };
}

/** Reads all of an open file, refusing to go past the size limit even if the file grew since stat. */
export async function readCapped(file: OpenedFile, size: number, rel: string): Promise<Uint8Array> {
  // One spare byte tells a file that grew past its stat'ed size; growth is tolerated up to the limit.
  let buffer = new Uint8Array(size + 1);
  let total = 0;
  while (true) {
    if (total === buffer.length) {
      if (buffer.length > MAX_FILE_BYTES) {
        throw new ToolError(`${showPath(rel)}: file is over the 10 MB limit.`);
      }
      const bigger = new Uint8Array(Math.min(buffer.length * 2, MAX_FILE_BYTES + 1));
      bigger.set(buffer);
      buffer = bigger;
    }
    const read = await file.read(buffer.subarray(total));
    if (read === null) return buffer.subarray(0, total);
    total += read;
  }
}

/** True when `bytes` starts with the UTF-8 byte-order mark. */
export function hasBom(bytes: Uint8Array): boolean {
  return UTF8_BOM.every((byte, i) => bytes[i] === byte);
}

/** `bytes` with the UTF-8 byte-order mark in front, to write back a file that had one. */
export function prependBom(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + UTF8_BOM.length);
  out.set(UTF8_BOM);
  out.set(bytes, UTF8_BOM.length);
  return out;
}

/**
 * Reads a regular file inside the root as strict UTF-8. The open never blocks, and what was opened must be
 * the very file that was checked (same device and inode) and still be the regular file at the real path
 * inside the root after the open (verifyOpened): swapping a file, a parent directory or a FIFO in between
 * is refused.
 */
export async function readTextFile(root: string, path: string): Promise<TextFile> {
  const guarded = await resolveForRead(root, path);
  const { real, rel, info } = guarded;
  const bytes = await withCleanErrors(rel, async () => {
    const viaHelper = await readThroughHelper(root, guarded, MAX_FILE_BYTES);
    if (viaHelper !== undefined) return viaHelper;
    await using file = await openNoBlock(real);
    await verifyOpened(root, real, rel, file.info);
    if (file.info.dev !== info.dev || file.info.ino !== info.ino) throw changedError(rel);
    return await readCapped(file, info.size, rel);
  });
  let text: string;
  try {
    // The decoder drops a leading BOM itself (ignoreBOM: false), which is what display wants.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ToolError(`${showPath(rel)}: binary file, ${bytes.length} bytes (not valid UTF-8 text).`);
  }
  return { ...guarded, info, text, bom: hasBom(bytes), bytes: bytes.length };
}

/**
 * tern's own state (`.tern/local/`: trust decisions, remembered approvals, sessions, the undo repository):
 * a tool never writes it, whatever the approval mode, or a prompt-injected model could trust the project
 * for the next run.
 */
const STATE_PREFIX = /^\.tern\/local(?:\/|$)/i;
/** The key of tern's state, relative to the root: never read by a tool either. */
const STATE_KEY = /^\.tern\/local\/key\.json$/i;

/** Refuses a write to tern's own state (`rel`: the real path relative to the root). */
export function refuseTernState(rel: string): void {
  if (STATE_PREFIX.test(rel.replaceAll("\\", "/"))) {
    throw new ToolError(`${showPath(rel)} is tern's own state: no tool may write it.`, "refused");
  }
}

/** Resolves a path to write: it may be missing, but must not be a directory or a special file. */
export async function resolveForWrite(root: string, path: string): Promise<GuardedPath> {
  const guarded = await resolvePath(root, path);
  const { info, rel } = guarded;
  refuseTernState(rel);
  if (info?.isDirectory) {
    throw new ToolError(`${showPath(rel)} is a directory: give the path of a file inside it.`);
  }
  if (info !== null && !info.isFile) {
    throw new ToolError(
      `${showPath(rel)} is not a regular file (it is ${kindOf(info)}): it cannot be written.`,
    );
  }
  return guarded;
}
