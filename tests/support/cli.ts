/** Runs the real CLI entry as a subprocess under the exact permission flags the binary bakes in. */
import { fileURLToPath } from "node:url";

const PROJECT = fileURLToPath(new URL("../../", import.meta.url));

/** The narrowed permission flags, read from the one place they are written: deno.json's `flags` task. */
export async function ternFlags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${PROJECT}deno.json`));
  const task: string = config.tasks.flags;
  return task.replace(/^echo\s+/, "").split(/\s+/).filter(Boolean);
}

/**
 * `deno` arguments that run tern's entry exactly as the binary would: `run FLAGS --config … main.ts`, or,
 * given the path of a bundle (scripts/bundle.ts), that file as the installed command runs it.
 */
export async function ternRunArgs(entry = `${PROJECT}main.ts`): Promise<string[]> {
  return ["run", ...await ternFlags(), "--config", `${PROJECT}deno.json`, entry];
}

/** The output of one CLI run. */
export interface CliRun {
  code: number;
  /** The signal that killed tern, or null when it exited by itself. */
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

/**
 * Where and how to run tern: arguments, working directory, environment (plus PATH/HOME), stdin text; or, with
 * `openStdin`, stdin piped and left open for the test to write (a protocol on stdin).
 */
export interface TernOptions {
  cwd: string;
  args: string[];
  env?: Record<string, string>;
  input?: string;
  openStdin?: boolean;
}

/**
 * Starts `tern ARGS` in `cwd` with only the given environment (plus PATH/HOME, NO_COLOR and a 1 ms first
 * retry step); stdout/stderr piped.
 */
export async function spawnTern(options: TernOptions): Promise<Deno.ChildProcess> {
  const command = new Deno.Command(Deno.execPath(), {
    args: [...await ternRunArgs(), ...options.args],
    cwd: options.cwd,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      NO_COLOR: "1",
      // Retries back off from 1 ms, not 1 s: a script that ran out (HTTP 500) costs no waiting.
      TERN_RETRY_DELAY: "1ms",
      ...options.env,
    },
    stdin: options.input === undefined && !options.openStdin ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = command.spawn();
  if (options.input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.input));
    await writer.close();
  }
  return child;
}

/** Collects what a spawned tern printed and how it exited. */
export async function finished(child: Deno.ChildProcess): Promise<CliRun> {
  const output = await child.output();
  const decoder = new TextDecoder();
  const { code, signal } = output;
  return { code, signal, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/**
 * Collects a spawned tern's output once it exits, or kills it after `timeoutMs` (generous: only a tern that
 * waits for something it should not reaches it) and resolves with null.
 */
export async function finishedWithin(child: Deno.ChildProcess, timeoutMs = 60_000): Promise<CliRun | null> {
  const output = finished(child);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), timeoutMs));
  const run = await Promise.race([output, late]);
  clearTimeout(timer);
  if (run === null) {
    child.kill("SIGKILL");
    await output;
  }
  return run;
}

/** Runs `tern ARGS` in `cwd` with only the given environment (plus PATH/HOME); stdin is `input` or closed. */
export async function runTern(options: TernOptions): Promise<CliRun> {
  return await finished(await spawnTern(options));
}

/** The same run as a shell command line, for tests that drive tern on a terminal (tmux). */
export async function ternCommandLine(): Promise<string> {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const words = [Deno.execPath(), ...await ternRunArgs()];
  return words.map(quote).join(" ");
}
