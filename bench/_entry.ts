/**
 * What the bench runs: tern as the installed command runs it, the bundle `deno task install` makes
 * (scripts/bundle.ts), built once per bench run into a temporary folder removed at exit.
 */
import { bundle } from "../scripts/bundle.ts";
import { ternRunArgs } from "../tests/support/cli.ts";

let built: Promise<string> | undefined;

async function buildOnce(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tern-bench-bundle-" });
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  return await bundle(dir);
}

/** `deno` arguments that run the installed command's bundle (built on first use). */
export async function installedRunArgs(): Promise<string[]> {
  built ??= buildOnce();
  return await ternRunArgs(await built);
}
