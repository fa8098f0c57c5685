/**
 * `deno task bundle` (run by `deno task install`): main.ts and every module it can load, bundled into
 * `dist/bundle/` (or the folder given): `main.js` and the chunks it loads (code splitting). The installed
 * command runs `main.js`: Deno then reads a handful of files at start-up instead of walking some 290 modules,
 * and what only some runs need (the REPL and its node:process and node:readline, ACP, the export, the
 * language servers) stays in chunks loaded when first imported. npm packages are loaded by name at run time
 * (src/npm.ts), so none is bundled. Chunks are named by their content: a build leaves the chunks of an earlier
 * one in place, so a tern still running from it finds them. The bench and the door matrix run the same bundle.
 */
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The `deno` arguments that bundle this checkout's main.ts into the folder `outdir`. */
export function bundleArgs(outdir: string): string[] {
  return [
    "bundle",
    "--quiet",
    "--config",
    `${ROOT}deno.json`,
    "--platform",
    "deno",
    "--code-splitting",
    // Minified, names kept (the classes and functions that errors and stack traces name): V8 keeps the
    // source of every chunk it loads in the heap, and parses it at each start.
    "--minify",
    "--keep-names",
    "--outdir",
    outdir,
    `${ROOT}main.ts`,
  ];
}

/** Bundles into the folder `outdir`; resolves with the entry to run; throws with Deno's words on failure. */
export async function bundle(outdir: string): Promise<string> {
  const run = await new Deno.Command(Deno.execPath(), {
    args: bundleArgs(outdir),
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (!run.success) throw new Error(`deno bundle failed: ${new TextDecoder().decode(run.stderr).trim()}`);
  return `${outdir}/main.js`;
}

let once: Promise<string> | undefined;

/**
 * The bundle built once for this process, in a temporary folder removed at exit (the bench and the door
 * matrix run it); resolves with its entry.
 */
export function bundleOnce(): Promise<string> {
  once ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "tern-bundle-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    return await bundle(dir);
  })();
  return once;
}

if (import.meta.main) {
  const outdir = Deno.args[0] ?? `${ROOT}dist/bundle`;
  try {
    await bundle(outdir);
  } catch (error) {
    console.error(`tern: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
}
