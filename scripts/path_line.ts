/**
 * Run last by `deno task install`: says where the `tern` command went and, when that folder is not on PATH,
 * the line that puts it there (for the shell's startup file), so the first `tern` is not "command not found".
 */
const root = Deno.env.get("DENO_INSTALL_ROOT") ??
  `${Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE")}/.deno`;
const bin = `${root}/bin`;
const windows = Deno.build.os === "windows";
const separator = windows ? ";" : ":";
const onPath = (Deno.env.get("PATH") ?? "").split(separator).some((dir) =>
  dir.replace(/[\\/]+$/, "") === bin
);
if (onPath) {
  console.log(`tern: installed in ${bin} (on your PATH): run tern in a project`);
} else if (windows) {
  console.log(`tern: installed in ${bin}, which is not on your PATH; add it: setx PATH "%PATH%;${bin}"`);
} else {
  const shell = (Deno.env.get("SHELL") ?? "").endsWith("zsh") ? "~/.zshrc" : "~/.bashrc";
  console.log(`tern: installed in ${bin}, which is not on your PATH; add this line to ${shell}:`);
  console.log(`export PATH="${bin}:$PATH"`);
}
