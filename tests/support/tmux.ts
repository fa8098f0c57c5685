/**
 * Drives a program on a real terminal: a detached tmux session on a tmux server of this test process's own
 * (so a developer's tmux, its environment and its sessions are never touched), read off the screen as a
 * person would see it.
 */

/** The tmux server of this test process: started with the first session, gone with the last. */
const SOCKET = `tern-tests-${Deno.pid}`;

const decoder = new TextDecoder();

/** Runs one tmux command on this process's server; `ok` is its success, `text` its stdout, `error` its stderr. */
export async function tmux(...args: string[]): Promise<{ ok: boolean; text: string; error: string }> {
  const output = await new Deno.Command("tmux", {
    args: ["-L", SOCKET, ...args],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return { ok: output.success, text: decoder.decode(output.stdout), error: decoder.decode(output.stderr) };
}

/**
 * How long to wait for the screen: generous, since a busy machine (or a first run that still downloads
 * tern's dependencies) is slow. Only a failing test waits it out.
 */
export const SCREEN_TIMEOUT_MS = 60_000;

/** A program running in a detached tmux session; `await using` kills the session. */
export interface TmuxSession extends AsyncDisposable {
  name: string;
  /** Sends keys as `tmux send-keys` names them: literal text, "Enter", "Escape", "C-c". */
  send(...keys: string[]): Promise<void>;
  /** The screen as text, wrapped lines joined; with `history`, the scrollback above it too. */
  screen(options?: { history?: boolean }): Promise<string>;
  /**
   * Polls until `text` shows up `count` times (default 1) in the screen and its scrollback; returns that
   * text. Throws with the last screen when the deadline passes or the program exits first.
   */
  waitFor(text: string, options?: { count?: number; timeoutMs?: number }): Promise<string>;
  /** Polls until the session is gone (the program exited); false when the deadline passed first. */
  waitForExit(timeoutMs?: number): Promise<boolean>;
}

/** Starts `command` (a shell command line) in a new detached session of `width`×`height` cells. */
export async function startTmux(
  command: string,
  options: { width?: number; height?: number } = {},
): Promise<TmuxSession> {
  const name = `tern-${Date.now()}-${crypto.getRandomValues(new Uint32Array(1))[0]}`;
  const size = [String(options.width ?? 120), String(options.height ?? 40)];
  let started = await tmux("new-session", "-d", "-s", name, "-x", size[0], "-y", size[1], command);
  // The server exits with its last session; a session started while it shuts down fails: try again.
  for (let tries = 0; !started.ok && tries < 10; tries++) {
    await pause(100);
    started = await tmux("new-session", "-d", "-s", name, "-x", size[0], "-y", size[1], command);
  }
  if (!started.ok) {
    throw new Error(`tmux could not start a session (${started.error.trim()}) for: ${command}`);
  }
  const capture = async (history: boolean) => {
    const result = await tmux("capture-pane", "-p", "-J", "-t", name, ...(history ? ["-S", "-"] : []));
    return result.ok ? result.text : null;
  };
  return {
    name,
    send: async (...keys) => {
      await tmux("send-keys", "-t", name, ...keys);
    },
    screen: async (opts = {}) => (await capture(opts.history ?? false)) ?? "",
    waitFor: async (text, opts = {}) => {
      const deadline = Date.now() + (opts.timeoutMs ?? SCREEN_TIMEOUT_MS);
      let screen = "";
      while (Date.now() < deadline) {
        const now = await capture(true);
        if (now === null) {
          throw new Error(`the program exited before ${JSON.stringify(text)}; screen:\n${screen}`);
        }
        screen = now;
        if (screen.split(text).length - 1 >= (opts.count ?? 1)) return screen;
        await pause(100);
      }
      throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${screen}`);
    },
    waitForExit: async (timeoutMs = SCREEN_TIMEOUT_MS) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (!(await tmux("has-session", "-t", name)).ok) return true;
        await pause(100);
      }
      return false;
    },
    [Symbol.asyncDispose]: async () => {
      await tmux("kill-session", "-t", name);
    },
  };
}

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
