/**
 * Opening a file without following its last name or blocking on it, and proving afterwards, from inside its
 * directory, that the open file is the one at the real path inside the root (a swapped parent refused).
 */
import { basename, dirname } from "./path.ts";
import { helperScript } from "./helper_script.ts";
import { fileHelper } from "./file_wall.ts";
import { ToolError } from "./tool_error.ts";
import { changedError, isInside, showPath } from "./path_basics.ts";

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
export async function readThroughHelper(
  root: string,
  { real, rel, info }: { real: string; rel: string; info: Deno.FileInfo },
  max: number,
): Promise<Uint8Array | undefined> {
  const helper = fileHelper();
  if (helper === null) return undefined;
  const dir = dirname(real);
  if (!isInside(root, dir) || real === root) throw changedError(rel);
  const got = await helper.read(dir, basename(real), max).catch(() => undefined);
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
  if ("tooLarge" in got) {
    throw new ToolError(`${showPath(rel)}: file is over the ${max / 1024 / 1024} MB limit.`);
  }
  throw changedError(rel);
}
