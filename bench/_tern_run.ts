/**
 * Runs `tern -p` as the installed command does (same flags, DENO_NO_UPDATE_CHECK=1, the sandbox in its
 * default mode) against the fake model server, and measures it: wall time, CPU time (user + system, children
 * included) and peak RSS from /usr/bin/time; the programs it started from strace; its CPU time at each model
 * request from /proc.
 */
import { type Script, type ScriptedTurn, startFakeModel } from "../tests/support/fake_model_server.ts";
import { installedRunArgs } from "./_entry.ts";

/** One run's figures. */
export interface RunFigures {
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

/** Where and how a run happens. */
export interface RunOptions {
  root: string;
  /** More environment (e.g. TERN_API for another wire). */
  env?: Record<string, string>;
  /** More tern arguments (e.g. --sandbox off). */
  args?: string[];
}

/** The environment of a measured run: a clean one, as a user's shell would give. */
function runEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/root",
    TERN_BASE_URL: url,
    TERN_API_KEY: "bench-key",
    TERN_MODEL: "fake",
    NO_COLOR: "1",
    // What the installed wrapper sets (scripts/quiet_wrapper.ts).
    DENO_NO_UPDATE_CHECK: "1",
    ...extra,
  };
}

async function ternArgs(options: RunOptions): Promise<string[]> {
  return [...await installedRunArgs(), "-p", "bench task", "--approve", "all", ...(options.args ?? [])];
}

function fail(code: number, stderr: Uint8Array): never {
  throw new Error(`tern failed (exit ${code}):\n${new TextDecoder().decode(stderr).slice(-2000)}`);
}

/** `tern -p` as the bench runs it against the model at `url`, started by `wrapper` (time, strace) or not. */
async function ternCommand(wrapper: string[], options: RunOptions, url: string): Promise<Deno.Command> {
  const [program, ...args] = [...wrapper, Deno.execPath(), ...await ternArgs(options)];
  return new Deno.Command(program, {
    args,
    cwd: options.root,
    clearEnv: true,
    env: runEnv(url, options.env),
    stdin: "null",
    stdout: wrapper.length === 0 ? "null" : "piped",
    stderr: "piped",
  });
}

/** Runs tern once under /usr/bin/time. */
export async function measureRun(script: Script, options: RunOptions): Promise<RunFigures> {
  await using model = startFakeModel(script);
  const output = await (await ternCommand(["/usr/bin/time", "-f", "BENCH %e %U %S %M"], options, model.url))
    .output();
  const stderr = new TextDecoder().decode(output.stderr);
  const line = stderr.split("\n").find((text) => text.startsWith("BENCH "));
  if (!output.success || !line) fail(output.code, output.stderr);
  const [wall, user, sys, rssKb] = line.slice(6).split(" ").map(Number);
  return { wallSeconds: wall, cpuSeconds: user + sys, peakRssMb: rssKb / 1024 };
}

/** The median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** True when strace is installed (the process counts need it). */
export async function haveStrace(): Promise<boolean> {
  try {
    return (await new Deno.Command("strace", { args: ["-V"], stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** The programs a run started (successful execve calls, tern's own deno not counted), by name. */
export async function programsStarted(script: Script, options: RunOptions): Promise<string[]> {
  await using model = startFakeModel(script);
  const log = await Deno.makeTempFile({ prefix: "tern-bench-strace-" });
  try {
    const strace = ["strace", "-f", "-qq", "-e", "trace=execve", "-o", log];
    const output = await (await ternCommand(strace, options, model.url)).output();
    if (!output.success) fail(output.code, output.stderr);
    const started = (await Deno.readTextFile(log)).split("\n")
      .filter((line) => / execve\(/.test(line) && / = 0$/.test(line))
      .map((line) => /execve\("([^"]*)"/.exec(line)?.[1] ?? "?")
      .map((path) => path.slice(path.lastIndexOf("/") + 1));
    return started.slice(1); // the first is deno itself
  } finally {
    await Deno.remove(log);
  }
}

/** CPU time of every thread of process `pid`, in ms (ns precision), or 0 once it is gone. */
function threadsMs(pid: number): number {
  let ns = 0;
  try {
    for (const entry of Deno.readDirSync(`/proc/${pid}/task`)) {
      ns += Number(Deno.readTextFileSync(`/proc/${pid}/task/${entry.name}/schedstat`).split(" ")[0]);
    }
  } catch {
    // It ended meanwhile: its time is in its parent's cutime once reaped.
  }
  return ns / 1e6;
}

/** The live children of `pid`. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const entry of Deno.readDirSync(`/proc/${pid}/task`)) {
      const text = Deno.readTextFileSync(`/proc/${pid}/task/${entry.name}/children`).trim();
      if (text !== "") out.push(...text.split(" ").map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/**
 * CPU time of process `pid` and everything it started, in ms: its threads and its live descendants' (ns
 * precision, the long-lived file helper included), plus its reaped children's (cutime, in 10 ms ticks).
 */
export function treeCpuMs(pid: number): number {
  let ms = threadsMs(pid);
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const after = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ms += (Number(after[13]) + Number(after[14])) * 10;
  } catch {
    return ms;
  }
  const stack = childrenOf(pid);
  while (stack.length > 0) {
    const child = stack.pop()!;
    ms += threadsMs(child);
    stack.push(...childrenOf(child));
  }
  return ms;
}

/** CPU (ms, see treeCpuMs) and wall time (ms) when each model request arrived, and tern's peak RSS then. */
export interface Mark {
  cpuMs: number;
  wallMs: number;
  /** tern's own peak resident memory so far (VmHWM), in MB. */
  peakRssMb: number;
}

/** The peak resident memory of process `pid` so far (VmHWM), in MB; 0 once it is gone. */
function peakRssMb(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * Runs tern once on `script` (turn i for request i), reading the CPU time of tern and all it started as each
 * model request arrives; resolves with those marks, one per request.
 */
export async function marksPerRequest(
  script: (i: number) => ScriptedTurn,
  options: RunOptions,
): Promise<Mark[]> {
  let pid = 0;
  const marks: Mark[] = [];
  await using model = startFakeModel((_body, index) => {
    const turn = script(index);
    if (pid !== 0) {
      // The clock now; /proc right after the answer is on its way, so the reading never delays tern (each
      // reading lands at the same point of its turn, so the differences are whole turns all the same). The
      // last answer is read first: tern may be gone a moment after it.
      const mark = { cpuMs: 0, wallMs: performance.now(), peakRssMb: 0 };
      marks.push(mark);
      const read = () => {
        mark.cpuMs = treeCpuMs(pid);
        mark.peakRssMb = peakRssMb(pid);
      };
      if (turn.toolCalls?.length) setTimeout(read, 0);
      else read();
    }
    return turn;
    // The bodies are not looked at here, and a long session's would fill the bench's memory.
  }, { forgetBodies: true });
  const child = (await ternCommand([], options, model.url)).spawn();
  pid = child.pid;
  const output = await child.output();
  if (!output.success) fail(output.code, output.stderr);
  return marks;
}
