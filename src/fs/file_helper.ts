/**
 * tern's long-lived file helper: one process per tern (Linux, where perl is installed), fed requests over a
 * pipe, that makes the file tools' race-free checks and creations without starting a process each time.
 * Deno names files only by absolute paths, which a racing process can redirect between any two calls; the
 * helper works from inside a directory instead: it enters it, proves where it is by the kernel's own view
 * (/proc/self/cwd, or getcwd where there is no /proc), and then uses single-component names only, which no swap of a parent can redirect. It
 * makes the same checks as the bash scripts that otherwise run once per check (path_guard.ts, atomic_write.ts).
 * Its lifetime and what happens when it is missing are file_wall.ts's.
 */
import { CLEAN_BASH, helperEnv } from "./helper_script.ts";
import { SCRIPT } from "./_file_helper_script.ts";
import { type PipeReader, pipeReader } from "./pipe_reads.ts";
import { after } from "../timer.ts";

/** What reading an entry through the helper gave: its identity and bytes, or why not. */
export type HelperRead =
  | { dev: number; ino: number; bytes: Uint8Array }
  /** The open failed (Linux errno: ENOENT 2, EACCES 13, ELOOP 40 when it is a symlink, ...). */
  | { errno: number }
  /** Not a regular file: fifo, socket, device, directory or other. */
  | { kind: string }
  | { tooLarge: true }
  /** The directory was not where it was named, or a read failed. */
  | { changed: true };

/** What the helper saw of one directory entry. */
export type Identity =
  | { dev: number; ino: number; regular: boolean }
  /** The directory was not where it was named (swapped, removed), or the entry is missing. */
  | { changed: true };

/** How long an answer may take before the helper counts as stuck. */
const ANSWER_TIMEOUT_MS = 10_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One helper process and the queue of requests to it (one at a time: answers come back in order). */
export class FileHelper {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: PipeReader;
  /** Output read but not yet consumed: whole chunks, the first from `#offset` on. */
  #chunks: Uint8Array[] = [];
  #offset = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #dead = false;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#reader = pipeReader(child.stdout);
    // It must not keep tern running: it ends when its stdin closes, at the latest as tern exits.
    child.unref();
  }

  /** Starts the helper; null where no process can be started (perl missing shows at the first request). */
  static start(): FileHelper | null {
    try {
      const child = new Deno.Command(CLEAN_BASH[0], {
        args: [...CLEAN_BASH.slice(1), "-c", 'exec perl -e "$1"', "tern-files", SCRIPT],
        clearEnv: true,
        env: helperEnv(),
        stdin: "piped",
        stdout: "piped",
        stderr: "null",
      }).spawn();
      return new FileHelper(child);
    } catch {
      return null;
    }
  }

  /** How the helper process ended (a signal: it was killed; an exit code: it could not run, or ended). */
  get exited(): Promise<Deno.CommandStatus> {
    return this.#child.status;
  }

  /** The helper's process id (what `ps` and a test see). */
  get pid(): number {
    return this.#child.pid;
  }

  /** False once the helper died or was closed (file_wall.ts restarts it once). */
  get alive(): boolean {
    return !this.#dead;
  }

  /** The identity of entry `name` of directory `dir`, seen from inside it (never following `name`). */
  async identity(dir: string, name: string): Promise<Identity> {
    const [line] = await this.#ask(fields("I", dir, name), 0);
    const [code, dev, ino, kind] = line.split(" ");
    if (code !== "0") return { changed: true };
    return { dev: Number(dev), ino: Number(ino), regular: kind === "file" };
  }

  /**
   * Opens entry `name` of directory `dir` from inside it (never following it, never blocking on a FIFO) and
   * reads it whole, at most `max` bytes: its identity and bytes, or why not.
   */
  async read(dir: string, name: string, max: number): Promise<HelperRead> {
    let bytes: Uint8Array | undefined;
    const [line] = await this.#ask(fields("R", dir, name, String(max)), 0, async (head) => {
      const [code, , , length] = head.split(" ");
      if (code === "0") bytes = await this.#take(Number(length));
    });
    const [code, a, b] = line.split(" ");
    if (code === "0") return { dev: Number(a), ino: Number(b), bytes: bytes! };
    if (code === "4") return { errno: Number(a) };
    if (code === "6") return { kind: a };
    if (code === "7") return { tooLarge: true };
    return { changed: true };
  }

  /**
   * atomic_write.ts's CREATE with `args` (here, levels, then target, temp and mode, which may be left out)
   * and `data`: its exit code and the directories it made.
   */
  async create(args: string[], data: Uint8Array): Promise<{ code: number; created: string[] }> {
    const [here, levels, target = "", temp = "", mode = ""] = args;
    const head = fields("C", here, levels, target, temp, mode, String(data.length));
    const request = new Uint8Array(head.length + data.length);
    request.set(head);
    request.set(data, head.length);
    const [line, ...created] = await this.#ask(request, -1);
    return { code: Number(line.split(" ")[0]), created };
  }

  /**
   * pids_cgroup.ts's SETUP, from inside the helper (root only): the file that joins pids cgroup
   * `tern-sandbox-MAX-PID`, made if need be, or undefined where there is none. The helper removes the
   * cgroups it made as it ends, which tern's exit (or death) causes by closing its stdin.
   */
  async pidsCgroup(pid: number, max: number): Promise<string | undefined> {
    const [line] = await this.#ask(fields("P", String(pid), String(max)), 0);
    return line === "" ? undefined : line;
  }

  /** Marks the helper dead and kills it; the pending request fails (file_wall.ts says what follows). */
  #abandon(): void {
    this.#dead = true;
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    this.#reader.cancel().catch(() => {});
  }

  /** Ends the helper and waits for it. */
  async close(): Promise<void> {
    this.#dead = true;
    this.#child.ref();
    await this.#writer.close().catch(() => {});
    await this.#reader.cancel().catch(() => {});
    await this.#child.status.catch(() => {});
  }

  /**
   * Sends `request`; resolves with the answer's line and its NUL-terminated names (`names` < 0: as it says);
   * `body` reads what follows the line, if anything does.
   */
  #ask(request: Uint8Array, names: number, body?: (line: string) => Promise<void>): Promise<string[]> {
    // Kept referenced while an answer is awaited (an unreferenced read would let the event loop end first).
    if (this.#pending++ === 0) this.#child.ref();
    const answer = this.#queue.then(async () => {
      if (this.#dead) throw new Error("the file helper is gone");
      // An answer never takes long: one that does not come means the helper is stuck, and it is let go.
      const timer = after(ANSWER_TIMEOUT_MS, () => this.#abandon());
      try {
        await this.#writer.write(request);
        const line = await this.#until(10);
        await body?.(line);
        const count = names < 0 ? Number(line.split(" ")[1] ?? 0) : names;
        const out = [line];
        for (let i = 0; i < count; i++) out.push(await this.#until(0));
        return out;
      } catch (error) {
        this.#abandon();
        throw error;
      } finally {
        timer.clear();
      }
    });
    this.#queue = answer.catch(() => {}).finally(() => {
      if (--this.#pending === 0) this.#child.unref();
    });
    return answer;
  }

  /** The next piece of output up to (not including) byte `end`, decoded. */
  async #until(end: number): Promise<string> {
    let scanned = 0;
    while (true) {
      for (let i = scanned; i < this.#chunks.length; i++) {
        const chunk = this.#chunks[i];
        const at = chunk.indexOf(end, i === 0 ? this.#offset : 0);
        if (at < 0) continue;
        const length = this.#chunks.slice(0, i).reduce((sum, c) => sum + c.length, 0) - this.#offset + at;
        const text = decoder.decode(await this.#take(length));
        await this.#take(1);
        return text;
      }
      scanned = this.#chunks.length;
      await this.#more();
    }
  }

  /** The next `length` bytes of output. */
  async #take(length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      if (this.#chunks.length === 0) await this.#more();
      const chunk = this.#chunks[0];
      const part = chunk.subarray(this.#offset, Math.min(chunk.length, this.#offset + length - filled));
      out.set(part, filled);
      filled += part.length;
      this.#offset += part.length;
      if (this.#offset === chunk.length) {
        this.#chunks.shift();
        this.#offset = 0;
      }
    }
    return out;
  }

  async #more(): Promise<void> {
    const value = await this.#reader.read();
    if (value === null) throw new Error("the file helper ended");
    // Kept until consumed, so copied out of the reader's buffer (at its own size, not 64 KB).
    this.#chunks.push(value.slice());
  }
}

function fields(...values: string[]): Uint8Array {
  return encoder.encode(values.map((value) => `${value}\0`).join(""));
}
