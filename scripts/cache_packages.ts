/**
 * Run by `deno task install` after `deno install`: caches every npm package tern can load
 * (src/_npm_packages.js) under the configuration the installed `tern` runs with. `deno install --global`
 * copies deno.json and deno.lock beside the wrapper (bin/.tern/) and prunes that lockfile to what main.ts's
 * module graph shows, and tern loads its packages with specifiers Deno cannot see: a package missing from
 * that lockfile is resolved on first use, which asks the npm registry (issue 29: the first `web_fetch`
 * without network ended the task). Caching under the installed configuration puts each package in its
 * lockfile and in the Deno cache, so the command works offline from then on.
 */
import { fileURLToPath } from "node:url";

const root = Deno.env.get("DENO_INSTALL_ROOT") ??
  `${Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE")}/.deno`;
const wrapper = `${root}/bin/${Deno.build.os === "windows" ? "tern.cmd" : "tern"}`;
const config = installedConfig(await Deno.readTextFile(wrapper));
if (config === undefined) {
  console.error(`tern: ${wrapper} names no --config; tern's npm packages were not cached for offline use`);
  Deno.exit(1);
}
const packages = fileURLToPath(new URL("../src/_npm_packages.js", import.meta.url));
const cache = new Deno.Command(Deno.execPath(), { args: ["cache", "--config", config, packages] });
const { code } = await cache.spawn().status;
if (code !== 0) {
  console.error(
    `tern: deno cache of tern's npm packages failed (exit ${code}): the command needs the network`,
  );
  Deno.exit(code);
}
console.error(`tern: its npm packages are cached (${config}): the command works offline`);

/** The `--config PATH` the wrapper runs deno with (quoted as the shell or cmd.exe quotes it, or bare). */
function installedConfig(text: string): string | undefined {
  const match = /"?--config"? (?:'([^']+)'|"([^"]+)"|(\S+))/.exec(text);
  return match ? match[1] ?? match[2] ?? match[3] : undefined;
}
