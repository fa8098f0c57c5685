/**
 * `deno task bundle` (run by `deno task install`): main.ts and every module it can load, bundled into one
 * file, `dist/tern.js` (or the path given). The installed command runs that file: Deno then reads one module
 * at start-up instead of walking some 280, so a one-turn run starts about a sixth sooner. Dynamically imported
 * modules stay lazy (evaluated only when first imported); npm packages are loaded by name at run time
 * (src/npm.ts), so none is bundled. The bench and tests/main_bundle_test.ts run the same bundle.
 */
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The `deno` arguments that bundle this checkout's main.ts into `output`. */
export function bundleArgs(output: string): string[] {
  return [
    "bundle",
    "--quiet",
    "--config",
    `${ROOT}deno.json`,
    "--platform",
    "deno",
    "--keep-names", // classes keep their names, as in the modules
    "--output",
    output,
    `${ROOT}main.ts`,
  ];
}

/** Bundles into `output`; throws with Deno's own words when bundling fails. */
export async function bundle(output: string): Promise<void> {
  const run = await new Deno.Command(Deno.execPath(), {
    args: bundleArgs(output),
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (!run.success) throw new Error(`deno bundle failed: ${new TextDecoder().decode(run.stderr).trim()}`);
}

if (import.meta.main) {
  const output = Deno.args[0] ?? `${ROOT}dist/tern.js`;
  try {
    await bundle(output);
  } catch (error) {
    console.error(`tern: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
}
