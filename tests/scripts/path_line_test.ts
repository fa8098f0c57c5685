/** The install's last words: where `tern` went, and the PATH line when its folder is not on PATH. */
import { assertEquals } from "../support/assert.ts";

const SCRIPT = new URL("../../scripts/path_line.ts", import.meta.url).pathname;

async function pathLine(env: Record<string, string>): Promise<string> {
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-env", SCRIPT],
    clearEnv: true,
    env,
  })
    .output();
  return new TextDecoder().decode(run.stdout);
}

Deno.test("scripts/path_line.ts prints the PATH line for the shell in use, or that tern is ready", async () => {
  const root = "/opt/deno-home";
  assertEquals(
    await pathLine({ DENO_INSTALL_ROOT: root, PATH: "/usr/bin:/bin", SHELL: "/usr/bin/zsh" }),
    `tern: installed in ${root}/bin, which is not on your PATH; add this line to ~/.zshrc:\n` +
      `export PATH="${root}/bin:$PATH"\n`,
  );
  assertEquals(
    await pathLine({ DENO_INSTALL_ROOT: root, PATH: `/usr/bin:${root}/bin/`, SHELL: "/bin/bash" }),
    `tern: installed in ${root}/bin (on your PATH): run tern in a project\n`,
  );
});
