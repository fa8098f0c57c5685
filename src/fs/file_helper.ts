/**
 * tern's long-lived file helper: one process per tern (Linux, where perl is installed), fed requests over a
 * pipe, that makes the file tools' race-free checks and creations without starting a process each time.
 * Deno names files only by absolute paths, which a racing process can redirect between any two calls; the
 * helper works from inside a directory instead: it enters it, proves where it is by the kernel's own view
 * (/proc/self/cwd), and then uses single-component names only, which no swap of a parent can redirect. It
 * makes the same checks as the bash scripts that otherwise run once per check (path_guard.ts, atomic_write.ts).
 * Off until the front end turns it on (`useFileHelper`); if it cannot start or dies, those scripts take over.
 */
import { CLEAN_BASH, helperEnv } from "./helper_script.ts";

/**
 * Requests are NUL-terminated fields. `I dir name`: enter dir, prove it, lstat name; answers "0 DEV INO
 * file|other", or 3 (the directory is not where it was) or 4 (no such entry). `R dir name max`: enter dir,
 * prove it, open name (never following it, never blocking), fstat: "0 DEV INO LENGTH" and the bytes; 3; 4
 * ERRNO (the open failed); 6 KIND (not a regular file); 7 (over max bytes); 5 (a read failed). `C here levels target temp mode
 * length` + length bytes: atomic_write.ts's CREATE, step for step; answers "CODE N" and the N directories it
 * created, each NUL-terminated. `P pid max`: pids_cgroup.ts's SETUP (root only); answers the join file or an
 * empty line. EOF on stdin ends it, removing the cgroups it made.
 */
const SCRIPT = String.raw`use strict; use Fcntl qw(O_RDONLY O_WRONLY O_CREAT O_EXCL O_NOFOLLOW O_NONBLOCK);
$| = 1; binmode STDIN; binmode STDOUT; $/ = "\0";
sub field { my $f = <STDIN>; exit 0 unless defined $f && chomp $f; $f }
sub at { my $c = readlink "/proc/self/cwd"; defined $c && $c eq $_[0] }
my @cgroups;
END { rmdir $_ for @cgroups }
sub pids_cgroup {
  my ($pid, $max) = @_;
  return "" if $> != 0;
  my ($base, $v2);
  local $/ = "\n";
  open(my $fh, "<", "/proc/self/cgroup") or return "";
  while (my $line = <$fh>) {
    chomp $line;
    my ($id, $controllers, $path) = split /:/, $line, 3;
    $path =~ s{/$}{};
    $base = "/sys/fs/cgroup/pids$path" if $controllers eq "pids";
    $v2 = "/sys/fs/cgroup$path" if $id eq "0" && $controllers eq "";
  }
  close $fh;
  if (!defined $base && defined $v2 && open(my $sc, "<", "$v2/cgroup.subtree_control")) {
    my $enabled = <$sc> // "";
    chomp $enabled;
    $base = $v2 if " $enabled " =~ / pids /;
  }
  return "" unless defined $base && -d $base;
  if (opendir(my $dh, $base)) {
    for (readdir $dh) { rmdir "$base/$_" if /^tern-sandbox-.*-(\d+)$/ && !kill(0, $1) }
  }
  my $cg = "$base/tern-sandbox-$max-$pid";
  return "" unless -d $cg || mkdir $cg;
  open(my $limit, ">", "$cg/pids.max") or return "";
  print $limit "$max\n";
  close $limit or return "";
  push @cgroups, $cg;
  return -e "$cg/tasks" ? "$cg/tasks" : "$cg/cgroup.procs";
}
sub create {
  my ($here, $levels, $target, $temp, $mode, $data) = @_;
  return 3 unless chdir($here) && at($here);
  my @made;
  for my $part (grep { length } split m{/}, $levels) {
    $here = "$here/$part";
    push @made, $here if !-e $part && !-l $part && mkdir $part;
    return (3, @made) if -l $part;
    return (4, @made) if -e $part && !-d $part;
    return (3, @made) unless chdir($part) && at($here);
  }
  return (0, @made) if $target eq "";
  sysopen(my $fh, $temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666) or return (5, @made);
  my $ok = 1;
  for (my $at = 0; $ok && $at < length($data);) {
    my $n = syswrite $fh, $data, length($data) - $at, $at;
    if (defined $n) { $at += $n } else { $ok = 0 }
  }
  $ok &&= chmod(oct $mode, $fh) if $mode ne "";
  $ok &&= close $fh;
  unless ($ok) { unlink $temp; return (5, @made) }
  if (!at($here) || -l $temp || !-f $temp || -d $target) { unlink $temp; return (3, @made) }
  unless (rename $temp, $target) { unlink $temp; return (5, @made) }
  return (0, @made);
}
while (1) {
  my $op = field();
  if ($op eq "I") {
    my ($dir, $name) = (field(), field());
    my @st;
    if (!(chdir($dir) && at($dir))) { print "3\n" }
    elsif (!(@st = lstat $name)) { print "4\n" }
    else { print "0 $st[0] $st[1] ", (-f _ ? "file" : "other"), "\n" }
  } elsif ($op eq "R") {
    my ($dir, $name, $max) = (field(), field(), field());
    my ($fh, $data, $n) = (undef, "", 1);
    if (!(chdir($dir) && at($dir))) { print "3\n"; next }
    if (!sysopen($fh, $name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)) { print "4 ", $! + 0, "\n"; next }
    my @st = stat $fh;
    if (!-f _) {
      print "6 ", (-p _ ? "fifo" : -S _ ? "socket" : (-c _ || -b _) ? "device" : -d _ ? "directory" : "other"), "\n";
      close $fh; next;
    }
    while ($n && length($data) <= $max) { $n = sysread($fh, $data, 65536, length($data)) }
    close $fh;
    if (!defined $n) { print "5\n" }
    elsif (length($data) > $max) { print "7\n" }
    else { print "0 $st[0] $st[1] ", length($data), "\n", $data }
  } elsif ($op eq "C") {
    my @args = map { field() } 1 .. 6;
    my ($len, $data) = (pop @args, "");
    while (length($data) < $len) { read(STDIN, $data, $len - length($data), length($data)) or exit 0 }
    my ($code, @made) = create(@args, $data);
    print "$code ", scalar @made, "\n", map { "$_\0" } @made;
  } elsif ($op eq "P") {
    my ($pid, $max) = (field(), field());
    print pids_cgroup($pid, $max), "\n";
  } else { exit 2 }
}`;

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
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Output read but not yet consumed: whole chunks, the first from `#offset` on. */
  #chunks: Uint8Array[] = [];
  #offset = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #dead = false;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#reader = child.stdout.getReader();
    // It must not keep tern running: it ends when its stdin closes, at the latest as tern exits.
    child.unref();
  }

  /** Starts the helper; null where it cannot run (not Linux; perl missing shows at the first request). */
  static start(): FileHelper | null {
    if (Deno.build.os !== "linux") return null;
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

  /** False once the helper died or was closed: callers then use the one-off scripts. */
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

  /** Marks the helper dead and kills it; the pending request fails (its caller uses the one-off script). */
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
      const timer = setTimeout(() => this.#abandon(), ANSWER_TIMEOUT_MS);
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
        clearTimeout(timer);
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
    const { value, done } = await this.#reader.read();
    if (done) throw new Error("the file helper ended");
    this.#chunks.push(value);
  }
}

function fields(...values: string[]): Uint8Array {
  return encoder.encode(values.map((value) => `${value}\0`).join(""));
}

let enabled = false;
let shared: FileHelper | null | undefined;

/** Turns the helper on for this process (the CLI does; tests use the one-off scripts unless they turn it on). */
export function useFileHelper(): void {
  enabled = true;
}

/** The helper, started on first use; null when it is off, cannot start, or died. */
export function fileHelper(): FileHelper | null {
  if (!enabled) return null;
  shared ??= FileHelper.start();
  return shared?.alive ? shared : null;
}

/** Ends the helper (at exit, or at the end of a test that turned it on); it can be turned on again. */
export async function closeFileHelper(): Promise<void> {
  enabled = false;
  const helper = shared;
  shared = undefined;
  await helper?.close();
}
