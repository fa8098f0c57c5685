/** `deno task compile` without a way to download Deno's runtime: one line saying how to give it a local one. */
import { assertEquals, assertMatch } from "../support/assert.ts";
import { refusingServer } from "../support/refusing_server.ts";
import { tempProject } from "../support/temp_project.ts";

const PROJECT = new URL("../../", import.meta.url).pathname;

Deno.test("scripts/compile.ts: the runtime's download refused, it says so in one line naming DENORT_BIN, and leaves no empty dist/", async () => {
  await using temp = await tempProject();
  // A Deno cache without the runtime (denort), sharing the npm packages: only the runtime must be fetched.
  const denoDir = `${temp.root}/deno-dir`;
  await Deno.mkdir(denoDir);
  const real = JSON.parse(
    new TextDecoder().decode(
      (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output()).stdout,
    ),
  ).denoDir;
  await Deno.symlink(`${real}/npm`, `${denoDir}/npm`);
  await using proxy = refusingServer();
  const flags = new TextDecoder().decode(
    (await new Deno.Command(Deno.execPath(), { args: ["task", "-q", "flags"], cwd: PROJECT }).output())
      .stdout,
  ).trim().split(/\s+/);
  const output = `${temp.root}/dist/tern`;
  const run = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-run",
      "--allow-read",
      "--allow-write",
      "scripts/compile.ts",
      ...flags,
      "--output",
      output,
    ],
    cwd: PROJECT,
    clearEnv: true, // no DENORT_BIN from the caller
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      DENO_DIR: denoDir,
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: "registry.npmjs.org",
      DENO_NO_UPDATE_CHECK: "1",
    },
  }).output();
  const stderr = new TextDecoder().decode(run.stderr).trim();
  assertEquals(run.code, 1, stderr);
  const lines = stderr.split("\n").filter((line) => !line.includes("Download") && !line.startsWith("Check"));
  assertEquals(lines.length, 1, stderr);
  assertMatch(
    lines[0],
    /^tern: deno compile could not download Deno's runtime for the binary \(https:\/\/dl\.deno\.land\/\S+denort\S+\.zip\)/,
  );
  assertMatch(lines[0], /DENORT_BIN=\/path\/to\/denort deno task compile$/);
  assertEquals(
    await Deno.lstat(`${temp.root}/dist`).then(() => true, () => false),
    false,
    "an empty dist/ was left",
  );
});
