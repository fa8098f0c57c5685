/**
 * The floors of issue 31, measured in the same run as the turns they are set beside: the CPU time of one
 * bare `bwrap … bash -c` (the isolation tern's sandbox asks for: / read-only, private /dev, /proc and /tmp,
 * the root writable, own PID, network and, where the probe allows, user namespace, no capabilities, a
 * session of its own, the shell as PID 1), of one plain `bash -c`, and the wall time of an empty
 * `deno run` of the Deno that runs tern. Beside the bare bwrap, one with all of tern's arguments
 * (bwrapArgs: $HOME's toolchains, the guarded paths): what those mounts cost is tern's, not the floor's. CPU comes from this process's reaped children (cutime and
 * cstime in /proc, 10 ms ticks), so BATCH runs in a row make one figure (0.2 ms resolution); medians over
 * batches taken before and after the turns, so a load that drifts during the run skews neither side.
 */
import { bwrapArgs, detectBubblewrap } from "../src/tools/shell/sandbox.ts";
import { median } from "./_tern_run.ts";
import type { Row } from "./_rows.ts";
import { ms } from "./_measure.ts";

const BATCH = 50;
const WALL_RUNS = 7;

/** The figures a floor row divides by. */
export interface Floors {
  /** CPU of one bare bwrap … bash -c, ms; undefined where bubblewrap does not work. */
  bwrapCpuMs?: number;
  /** CPU of one bwrap … bash -c with every argument bwrapArgs gives a command, ms. */
  ternBwrapCpuMs?: number;
  /** CPU of one plain bash -c, ms. */
  bashCpuMs: number;
  /** Wall time of an empty `deno run`, seconds. */
  denoWallSeconds: number;
}

/** CPU time of this process's reaped children so far (user + system), in ms. */
function childrenCpuMs(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const after = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(after[13]) + Number(after[14])) * 10;
}

/** Mean CPU (ms) of one run of `program args`, over BATCH runs in a row. */
async function cpuPerRun(program: string, args: string[], cwd: string): Promise<number> {
  const before = childrenCpuMs();
  for (let i = 0; i < BATCH; i++) {
    const output = await new Deno.Command(program, {
      args,
      cwd,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    })
      .output();
    if (!output.success) throw new Error(`${program} failed: ${new TextDecoder().decode(output.stderr)}`);
  }
  return (childrenCpuMs() - before) / BATCH;
}

/** The bare and the full bwrap argv of `echo 1` in `root` (no network); undefined without bubblewrap. */
export async function bwrapArgvs(root: string): Promise<{ bare: string[]; full: string[] } | undefined> {
  const probe = await detectBubblewrap();
  if (!probe.available) return undefined;
  const shell = ["--new-session", "--as-pid-1", "--", "bash", "-c", "echo 1"];
  const bare = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  bare.push("--bind", root, root, "--chdir", root, "--unshare-pid", "--die-with-parent", "--unshare-net");
  if (probe.userNamespace) bare.push("--unshare-user");
  bare.push("--cap-drop", "ALL");
  const full = bwrapArgs({
    root,
    home: Deno.env.get("HOME"),
    path: Deno.env.get("PATH"),
    network: false,
    userNamespace: probe.userNamespace,
    tmpfsPerms: probe.tmpfsPerms,
  });
  return { bare: [...bare, ...shell], full: [...full, ...shell] };
}

/** Median wall time (s) of `deno run` on an empty module, after one warm-up. */
async function emptyDenoWall(dir: string): Promise<number> {
  const file = `${dir}/empty.ts`;
  await Deno.writeTextFile(file, "");
  const args = ["run", "--no-config", "--no-prompt", "--quiet", file];
  const env = { DENO_NO_UPDATE_CHECK: "1" };
  const run = () => new Deno.Command(Deno.execPath(), { args, env, stdin: "null", stdout: "null" }).output();
  await run();
  const walls: number[] = [];
  for (let i = 0; i < WALL_RUNS; i++) {
    const start = performance.now();
    await run();
    walls.push((performance.now() - start) / 1000);
  }
  return median(walls);
}

/** One batch of each floor, in `root` (a temp project of the caller's). */
export async function sampleFloors(root: string): Promise<Floors> {
  const bwrap = await bwrapArgvs(root);
  return {
    bwrapCpuMs: bwrap ? await cpuPerRun("bwrap", bwrap.bare, root) : undefined,
    ternBwrapCpuMs: bwrap ? await cpuPerRun("bwrap", bwrap.full, root) : undefined,
    bashCpuMs: await cpuPerRun("bash", ["-c", "echo 1"], root),
    denoWallSeconds: await emptyDenoWall(root),
  };
}

/** The median of each floor over `samples`. */
export function medianFloors(samples: Floors[]): Floors {
  const of = (key: "bwrapCpuMs" | "ternBwrapCpuMs") => {
    const values = samples.flatMap((sample) => sample[key] === undefined ? [] : [sample[key]]);
    return values.length > 0 ? median(values) : undefined;
  };
  return {
    bwrapCpuMs: of("bwrapCpuMs"),
    ternBwrapCpuMs: of("ternBwrapCpuMs"),
    bashCpuMs: median(samples.map((sample) => sample.bashCpuMs)),
    denoWallSeconds: median(samples.map((sample) => sample.denoWallSeconds)),
  };
}

/** The per-turn figures the floor rows divide. */
export interface TurnFigures {
  oneWallSeconds: number;
  commandCpuMs: number;
  readCpuMs: number;
  editCpuMs: number;
}

/** The floor rows: each floor, then figure ÷ floor with both named and issue 31's bound as the target. */
export function floorRows(floors: Floors, turns: TurnFigures): Row[] {
  const rows: Row[] = [
    { name: "floor: one plain bash -c, CPU", unit: "ms", value: floors.bashCpuMs },
    { name: "floor: an empty deno run, wall", unit: "ms", value: floors.denoWallSeconds * 1000 },
    {
      name: `  one-turn -p wall ÷ it (${ms(turns.oneWallSeconds * 1000)} ÷ ${
        ms(floors.denoWallSeconds * 1000)
      })`,
      unit: "×",
      value: turns.oneWallSeconds / floors.denoWallSeconds,
      target: 2.5,
    },
  ];
  const bwrap = floors.bwrapCpuMs;
  if (bwrap === undefined) {
    console.log("bubblewrap does not work here: no sandbox floor, no floor ratios of the turns");
    return rows;
  }
  const ratio = (name: string, cpuMs: number, target: number): Row => ({
    name: `  ${name} ÷ it (${ms(cpuMs)} ÷ ${ms(bwrap)})`,
    unit: "×",
    value: cpuMs / bwrap,
    target,
  });
  rows.splice(
    0,
    0,
    { name: "floor: one bare bwrap … bash -c, CPU", unit: "ms", value: bwrap },
    ratio("command turn CPU", turns.commandCpuMs, 3),
    ratio("read_file turn CPU", turns.readCpuMs, 1),
    ratio("edit_file turn CPU", turns.editCpuMs, 1.5),
    {
      name: "  (one bwrap with all of tern's arguments, CPU)",
      unit: "ms",
      value: floors.ternBwrapCpuMs ?? 0,
    },
  );
  return rows;
}
