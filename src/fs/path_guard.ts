/** Resolves model-given paths inside the project root and refuses everything else, before touching it. */

import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { helperScript } from "./helper_script.ts";
import { fileHelper } from "./file_wall.ts";
import { ToolError } from "./tool_error.ts";

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

/** Shows a model-given path in an error without flooding it (5,000 characters) or hiding control bytes. */
export function showPath(path: string): string {
  const shown = path.length > 120 ? `${path.slice(0, 60)}…(${path.length} characters)` : path;
  return JSON.stringify(shown);
}

/** True when `path` is `root` or below it; separator-aware (`/proj-evil` is not inside `/proj`). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
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

/** The refusal when a path changed between its check and its use (a racing process swapped something). */
export function changedError(rel: string): ToolError {
  return new ToolError(`${showPath(rel)} changed while it was being opened: nothing was done; try again.`);
}

/** Identity and type of an open file (its fstat). */
export interface OpenedInfo {
  dev: number;
  ino: number;
  size: number;
  isFile: boolean;
  kind: string;
}

/** A file opened for reading without following a final symlink and without blocking (a FIFO, a device). */
export interface OpenedFile extends AsyncDisposable {
  /** fstat of what was actually opened. */
  info: OpenedInfo;
  /** Reads into `into`; null at the end of the file. */
  read(into: Uint8Array): Promise<number | null>;
}

/**
 * node:fs, loaded on the first open: it is the only way to pass O_NONBLOCK and O_NOFOLLOW from Deno, and
 * loading it costs about 20 ms that a run without file tools should not pay at start-up.
 */
let nodeFs: Promise<{ open: typeof import("node:fs/promises").open; flags: number }> | undefined;

function loadNodeFs() {
  nodeFs ??= Promise.all([import("node:fs"), import("node:fs/promises")]).then(([fs, promises]) => ({
    open: promises.open,
    flags: fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW,
  }));
  return nodeFs;
}

/**
 * Opens `real` for reading with O_NONBLOCK (opening a FIFO swapped in after a check returns at once instead
 * of waiting for a writer forever) and O_NOFOLLOW, then fstats the handle. Callers refuse non-regular files.
 */
export async function openNoBlock(real: string): Promise<OpenedFile> {
  const { open, flags } = await loadNodeFs();
  const handle = await open(real, flags);
  try {
    const stat = await handle.stat();
    const kind = stat.isFile()
      ? "a regular file"
      : stat.isFIFO()
      ? "a FIFO (named pipe)"
      : stat.isSocket()
      ? "a socket"
      : stat.isCharacterDevice() || stat.isBlockDevice()
      ? "a device"
      : stat.isDirectory()
      ? "a directory"
      : "a special file";
    const info = {
      dev: Number(stat.dev),
      ino: Number(stat.ino),
      size: Number(stat.size),
      isFile: stat.isFile(),
      kind,
    };
    return {
      info,
      read: async (into) => {
        const { bytesRead } = await handle.read(into, 0, into.length, null);
        return bytesRead === 0 && into.length > 0 ? null : bytesRead;
      },
      [Symbol.asyncDispose]: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Prints the device, inode and type of entry $2 (never following a symlink) in directory $1, from inside it:
 * `cd -P` then the external `pwd -P` (the kernel's getcwd; bash's builtin re-resolves a string) proves which
 * directory bash is in, whatever swapped a parent,
 * and the single-component name cannot be redirected. Deno can only name files by absolute paths, which a
 * racing process redirects between any two calls; this is the one view of a name that it cannot.
 */
const IDENTITY = `cd -P -- "$1" 2>/dev/null && [ "$(env pwd -P)" = "$1" ] || exit 3
stat -c '%d %i %F' -- "$2" 2>/dev/null || stat -f '%d %i %HT' -- "$2" 2>/dev/null || exit 4`;

/**
 * The same proof in one process on Linux (about 1.3 ms instead of 5; every read pays it): started in the
 * directory, `stat` reports the kernel's view of its own working directory (the /proc/self/cwd link) and
 * then the entry, never following it. `literal` quoting and the C locale make the output exact text.
 */
const KERNEL_IDENTITY = 'exec stat -c "%d %i %F %N" -- /proc/self/cwd "$1"';

/**
 * True when KERNEL_IDENTITY shows the entry `name` of `dir` to be the regular file `opened`. False means
 * "not shown" (a mismatch, an odd `stat`, not Linux): the bash proof then decides.
 */
export async function shownByKernel(dir: string, name: string, opened: OpenedInfo): Promise<boolean> {
  if (Deno.build.os !== "linux") return false;
  try {
    const { stdout } = await helperScript(KERNEL_IDENTITY, "tern-identity", [name], {
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      cwd: dir,
      env: { LC_ALL: "C", QUOTING_STYLE: "literal" },
    }).output();
    const text = new TextDecoder().decode(stdout).replace(/^\d+ \d+ /, "");
    const entry = (kind: string) =>
      `symbolic link /proc/self/cwd -> ${dir}\n${opened.dev} ${opened.ino} ${kind} ${name}\n`;
    return text === entry("regular file") || text === entry("regular empty file");
  } catch {
    return false; // The directory could not be entered (swapped, removed): the bash proof says why.
  }
}

/**
 * Proves that the open file `opened` is the regular file at `real` inside the root after the open: the
 * entry `basename(real)` in the directory `dirname(real)` (entered and confirmed by the kernel's own view,
 * see KERNEL_IDENTITY and IDENTITY) must be a regular file, not a symlink, with the opened file's device and
 * inode. An open that a swapped parent (or a FIFO) redirected is refused.
 */
export async function verifyOpened(
  root: string,
  real: string,
  rel: string,
  opened: OpenedInfo,
): Promise<void> {
  if (!opened.isFile) throw new ToolError(`${showPath(rel)} is not a regular file (it is ${opened.kind}).`);
  const dir = dirname(real);
  if (!isInside(root, dir) || real === root) throw changedError(rel);
  // The long-lived helper makes the same proof without starting a process (file_helper.ts).
  const seen = await fileHelper()?.identity(dir, basename(real)).catch(() => undefined);
  if (seen !== undefined) {
    if ("changed" in seen || !seen.regular || seen.dev !== opened.dev || seen.ino !== opened.ino) {
      throw changedError(rel);
    }
    return;
  }
  if (await shownByKernel(dir, basename(real), opened)) return;
  const { code, stdout } = await helperScript(IDENTITY, "tern-identity", [dir, basename(real)], {
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  const [dev, ino, ...kind] = new TextDecoder().decode(stdout).trim().split(" ");
  const regular = /^regular/i.test(kind.join(" "));
  if (code !== 0 || !regular || Number(dev) !== opened.dev || Number(ino) !== opened.ino) {
    throw changedError(rel);
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

/** `.env` and `.env.*` in any case; the templates below are the exception. */
const SECRET_ENV_NAME = /^\.env(?:\..*)?$/is;

/** Env-file names that are templates without real values, so reading them is safe and useful. */
const ENV_TEMPLATES = new Set([".env.example", ".env.sample", ".env.template"]);

/** True for a file name like `.env` or `.env.local` that holds secrets; `.env.example` and kin are not. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name) && !ENV_TEMPLATES.has(name.toLowerCase());
}

/** The refusal of a `.env` file: it holds the API key, and the model must never see it. */
export class SecretFileError extends ToolError {}

/** Refuses `path` when it names, or resolves to, a secret env file (a symlink must not launder the name). */
function refuseSecretEnv(path: string, real: string, rel: string): void {
  if (!isSecretEnvName(basename(path)) && !isSecretEnvName(basename(real))) return;
  // No allow switch yet: a flag or config key can come later; until then the user pastes what is needed.
  throw new SecretFileError(
    `${showPath(rel)}: refused: .env files hold secrets (API keys), so tern does not read them. ` +
      `If the user wants part of it read, they can paste the needed part into the chat ` +
      `(without the secret values). .env.example, .env.sample and .env.template can be read.`,
  );
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
    const viaHelper = await readThroughHelper(root, guarded);
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

/** Linux errno numbers the helper reports, as the codes describeFailure words. */
const ERRNO_CODES: Record<number, string> = {
  1: "EPERM",
  2: "ENOENT",
  13: "EACCES",
  20: "ENOTDIR",
  21: "EISDIR",
  40: "ELOOP",
};

const KIND_WORDS: Record<string, string> = {
  fifo: "a FIFO (named pipe)",
  socket: "a socket",
  device: "a device",
  directory: "a directory",
  other: "a special file",
};

/**
 * The file's bytes read by the long-lived file helper, which opens it from inside its directory (entered and
 * proven by the kernel's view of it), by its single-component name, never following it and never blocking:
 * the open itself cannot be redirected, so nothing needs verifying afterwards but that it is the file that
 * was resolved. Undefined when the helper is off or failed: the caller opens and verifies it itself.
 */
async function readThroughHelper(
  root: string,
  { real, rel, info }: GuardedPath & { info: Deno.FileInfo },
): Promise<Uint8Array | undefined> {
  const helper = fileHelper();
  if (helper === null) return undefined;
  const dir = dirname(real);
  if (!isInside(root, dir) || real === root) throw changedError(rel);
  const got = await helper.read(dir, basename(real), MAX_FILE_BYTES).catch(() => undefined);
  if (got === undefined) return undefined;
  if ("bytes" in got) {
    if (got.dev !== info.dev || got.ino !== info.ino) throw changedError(rel);
    return got.bytes;
  }
  if ("errno" in got) {
    throw Object.assign(new Error("open failed"), { code: ERRNO_CODES[got.errno] ?? "EIO" });
  }
  if ("kind" in got) {
    throw new ToolError(`${showPath(rel)} is not a regular file (it is ${KIND_WORDS[got.kind]}).`);
  }
  if ("tooLarge" in got) throw new ToolError(`${showPath(rel)}: file is over the 10 MB limit.`);
  throw changedError(rel);
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
