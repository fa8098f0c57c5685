/**
 * What the bench runs: tern as the installed command runs it, the bundle `deno task install` makes
 * (scripts/bundle.ts), built once per bench run into a temporary folder removed at exit.
 */
import { bundleOnce } from "../scripts/bundle.ts";
import { ternRunArgs } from "../tests/support/cli.ts";

/** `deno` arguments that run the installed command's bundle (built on first use). */
export async function installedRunArgs(): Promise<string[]> {
  return await ternRunArgs(await bundleOnce());
}
