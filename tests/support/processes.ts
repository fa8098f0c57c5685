/** Finding processes from outside, by a word on their command line (works across PID namespaces). */

/**
 * A `sleep` duration no other process has on its command line, e.g. "31.2718281828": `sleep <marker>`
 * can then be found with `ps` from outside, also when bubblewrap gave it a namespaced PID. `whole` picks the
 * integer part (default 900–998 seconds).
 */
export function sleepMarker(whole = 900 + Math.floor(Math.random() * 99)): string {
  return `${whole}.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
}

/** The command lines of all live (not zombie) processes that contain `marker`. */
export async function processesWith(marker: string): Promise<string[]> {
  const { stdout } = await new Deno.Command("ps", { args: ["-eo", "stat=,args="] }).output();
  return new TextDecoder().decode(stdout).split("\n")
    .filter((line) => line.includes(marker) && !line.trimStart().startsWith("Z"))
    .map((line) => line.trim());
}

/** Polls `check` until it returns true; false when `timeoutMs` (generous: a busy machine is slow) passed first. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return await check();
}
