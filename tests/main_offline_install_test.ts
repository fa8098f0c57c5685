/**
 * The README's promise "after `deno task install` the command works offline" (issue 29 §3): the install
 * fills an empty Deno cache (from the npm registry, as on a fresh machine), then, in a network namespace
 * where only loopback exists, the installed `tern` uses every feature that loads an npm package
 * (tests/support/offline_install_checks.ts: web_fetch, glob and grep, an edit's diff, MCP, the REPL's
 * trust question and highlighted markdown, ACP) without a single request to the registry.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch } from "./support/assert.ts";
import { networkNamespace } from "./support/network_namespace.ts";
import { tempProject } from "./support/temp_project.ts";
import { whyMissing } from "./support/requires.ts";

const PROJECT = fileURLToPath(new URL("../", import.meta.url));
const CHECKS = fileURLToPath(new URL("./support/offline_install_checks.ts", import.meta.url));
const NAME = "after deno task install, the tern command works with no network at all";

const decoder = new TextDecoder();
// deno-lint-ignore no-control-regex -- deno test colours its summary line, which says how many checks ran
const COLOURS = /\x1b\[[0-9;]*m/g;

/** `deno ARGS` in the checkout, with `env` added to this process's environment; fails the test on failure. */
async function deno(args: string[], env: Record<string, string> = {}): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: PROJECT,
    env: { ...Deno.env.toObject(), ...env },
  }).output();
  const said = decoder.decode(output.stdout) + decoder.decode(output.stderr);
  assertEquals(output.code, 0, `deno ${args.join(" ")}:\n${said}`);
  return said;
}

const namespace = await networkNamespace();
const why = "why" in namespace ? namespace.why : whyMissing("tmux");
if (why !== null) {
  console.error(`skipped "${NAME}": ${why}`);
  Deno.test({ name: `${NAME} (skipped: ${why})`, ignore: true, fn: () => {} });
} else if (!("why" in namespace)) {
  Deno.test(NAME, async () => {
    await using work = await tempProject();
    const denoDir = join(work.outside, "deno-dir"); // empty: everything tern needs comes from the install
    const installRoot = join(work.outside, "install");
    await deno(["task", "install"], { DENO_DIR: denoDir, DENO_INSTALL_ROOT: installRoot });
    // The checks' own modules (the ACP client SDK among them) in the test runner's cache, not tern's.
    await deno(["cache", "--config", `${PROJECT}deno.json`, CHECKS]);
    const runnerDir = Deno.env.get("DENO_DIR");
    const env = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      ...runnerDir && { DENO_DIR: runnerDir },
      DENO_NO_UPDATE_CHECK: "1",
      OFFLINE_TEST_TERN: join(installRoot, "bin", "tern"),
      OFFLINE_TEST_DENO_DIR: denoDir,
    };
    const argv = namespace.wrap([Deno.execPath(), "test", "--allow-all", "--no-check", CHECKS], env);
    const output = await new Deno.Command(argv[0], { args: argv.slice(1), cwd: PROJECT }).output();
    const said = (decoder.decode(output.stdout) + decoder.decode(output.stderr)).replace(COLOURS, "");
    assertEquals(
      output.code,
      0,
      `the offline checks failed (in a namespace made by ${namespace.how}):\n${said}`,
    );
    assertMatch(said, /ok \| 3 passed \| 0 failed/, said);
    assert(!/\d+ ignored/.test(said), said); // a check skipped inside would prove nothing
  });
}
