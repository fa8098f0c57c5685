/**
 * Run by `deno task install` after `deno install`: the `tern` wrapper it left on PATH gets
 * `DENO_NO_UPDATE_CHECK=1`, so the installed command never contacts Deno's update server.
 */
const root = Deno.env.get("DENO_INSTALL_ROOT") ??
  `${Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE")}/.deno`;
const unix = `${root}/bin/tern`;
const windows = `${root}/bin/tern.cmd`;
const [path, line] = Deno.build.os === "windows"
  ? [windows, "@set DENO_NO_UPDATE_CHECK=1"]
  : [unix, "export DENO_NO_UPDATE_CHECK=1"];
const text = await Deno.readTextFile(path);
if (!text.includes("DENO_NO_UPDATE_CHECK")) {
  const newline = text.indexOf("\n");
  // After the shebang (Unix) or the @echo off line (Windows): the variable is set before deno runs.
  await Deno.writeTextFile(path, `${text.slice(0, newline + 1)}${line}\n${text.slice(newline + 1)}`);
}
console.error(`tern: ${path} runs with DENO_NO_UPDATE_CHECK=1`);
