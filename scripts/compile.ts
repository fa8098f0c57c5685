/**
 * `deno task compile`: `deno compile` of main.ts with the arguments given (the permission flags and
 * `--output`, from deno.json) and the npm packages. Deno downloads its runtime for the binary (denort, from
 * dl.deno.land) unless DENORT_BIN names a local copy: without network that download fails, and this says so
 * in one line, with where to get the runtime and how to point Deno at it, instead of Deno's error and
 * backtrace; the empty output folder the failed run left is removed.
 */
import { dirname } from "node:path";

const args = Deno.args;
const at = args.indexOf("--output");
const output = at >= 0 && at + 1 < args.length ? args[at + 1] : "dist/tern";
const folder = dirname(output);
const folderExisted = await Deno.lstat(folder).then(() => true, () => false);

// Every build embeds the npm packages: tern loads them with a specifier deno compile cannot see.
const embed = ["--include", "src/_npm_packages.js"];
const compile = new Deno.Command(Deno.execPath(), {
  args: ["compile", ...args, ...(at >= 0 ? [] : ["--output", output]), ...embed, "main.ts"],
  stdout: "inherit",
  stderr: "piped",
});
const { code, stderr } = await compile.output();
const said = new TextDecoder().decode(stderr);
if (code === 0) {
  await Deno.stderr.write(stderr);
  Deno.exit(0);
}
const runtime = runtimeDownload(said);
if (runtime === undefined) {
  await Deno.stderr.write(stderr);
  Deno.exit(code);
}
if (!folderExisted) await Deno.remove(folder).catch(() => {}); // only when empty: never what was there
console.error(
  `tern: deno compile could not download Deno's runtime for the binary (${runtime}): no network? ` +
    `Fetch that zip where there is, unzip it, and run DENORT_BIN=/path/to/denort deno task compile`,
);
Deno.exit(1);

/** The runtime's URL when the failure was its download (undefined for any other failure). */
function runtimeDownload(text: string): string | undefined {
  if (!/Setting up base binary|denort/.test(text)) return undefined;
  if (!/error sending request|dns error|Connect|timed out|download/i.test(text)) return undefined;
  return /https:\/\/dl\.deno\.land\/\S+?\.zip/.exec(text)?.[0] ?? "denort from dl.deno.land";
}
