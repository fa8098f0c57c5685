/**
 * tern on a fresh Deno cache with no network (issue 21 §5.14): --help and --version answer without Deno
 * resolving or downloading a single npm package first; a real run that needs packages it cannot download
 * ends with one line.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./support/assert.ts";
import { runTern } from "./support/cli.ts";
import { refusingServer } from "./support/refusing_server.ts";
import { tempProject } from "./support/temp_project.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { HELP_TEXT } from "../src/cli/help_text.ts";
import { VERSION } from "../src/cli/version.ts";
import { COMMIT } from "../src/cli/build_info.ts";

/**
 * Runs `tern ARGS` (the binary's flags, from source) with an empty DENO_DIR, the npm registry and every
 * proxy pointed at a server that counts and refuses each connection: nothing remote is reachable.
 */
async function ternOffline(args: string[], model?: string) {
  await using project = await tempProject();
  await using unreachable = refusingServer();
  const run = await runTern({
    cwd: project.root,
    args,
    env: {
      DENO_DIR: join(project.outside, "deno-dir"), // created by Deno, removed with the project
      DENO_NO_UPDATE_CHECK: "1", // as every way of running tern sets it
      NPM_CONFIG_REGISTRY: `${unreachable.url}/`,
      HTTP_PROXY: unreachable.url,
      HTTPS_PROXY: unreachable.url,
      TERN_BASE_URL: model ?? `${unreachable.url}/v1`,
      // The model on 127.0.0.1 is reached directly (as is the registry: it refuses, and counts, all the same).
      ...model && { NO_PROXY: "127.0.0.1" },
      TERN_API_KEY: "k",
      TERN_MODEL: "m",
    },
  });
  return { ...run, attempts: [...unreachable.attempts] };
}

Deno.test("tern --version on an empty Deno cache answers without contacting the npm registry", async () => {
  const run = await ternOffline(["--version"]);
  assertEquals(run.stdout, `tern ${VERSION} (${COMMIT})\n`, run.stderr);
  assertEquals(run.code, 0);
  assertEquals(run.attempts, [], "Deno reached out before tern answered");
});

Deno.test("tern --help and tern acp --help on an empty Deno cache answer without contacting the npm registry", async () => {
  for (const args of [["--help"], ["acp", "--help"]]) {
    const run = await ternOffline(args);
    assertEquals(run.stdout, `${HELP_TEXT}\n`, run.stderr);
    assertEquals(run.code, 0);
    assertEquals(run.attempts, [], `Deno reached out before tern answered ${args.join(" ")}`);
  }
});

Deno.test("a run on an empty Deno cache with the npm registry unreachable needs no package to answer", async () => {
  await using model = startFakeModel([{ text: "hello back" }]);
  const run = await ternOffline(["-p", "hello", "--no-session"], model.url);
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "hello back\n");
  assertEquals(run.attempts, [], "Deno reached out for a package the run did not need");
});

Deno.test("a write and an edit on an empty Deno cache with the npm registry unreachable need no package", async () => {
  const call = (name: string, args: unknown) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });
  await using model = startFakeModel([
    call("write_file", { path: "a.txt", content: "one\ntwo\n" }),
    call("edit_file", { path: "a.txt", old_text: "two", new_text: "2" }),
    { text: "written and edited" },
  ]);
  const run = await ternOffline(["-p", "write a.txt", "--no-session", "--approve", "all"], model.url);
  assertEquals([run.code, run.stdout], [0, "written and edited\n"], run.stderr);
  assertMatch(run.stderr, /a\.txt: \+1 −1 line/);
  assertEquals(run.attempts, [], "Deno reached out for a package the run did not need");
});

Deno.test("a run that needs a package it cannot download ends with one line naming it", async () => {
  const glob = { name: "glob_files", arguments: JSON.stringify({ pattern: "**/*.ts" }) };
  await using model = startFakeModel([{ toolCalls: [glob] }, { text: "found" }]);
  const run = await ternOffline(["-p", "find the ts files", "--no-session", "--approve", "all"], model.url);
  assertEquals(run.code, 1, run.stderr);
  assertEquals(run.stdout, "");
  const said = run.stderr.trimEnd().split("\n").filter((line) => line.startsWith("tern:"));
  assertEquals(said.length, 1, run.stderr);
  assertMatch(said[0], /^tern: .*cannot load the npm package picomatch \(.*\): .*npm registry/);
  assert(!run.stderr.includes("\x1b"), "terminal codes in the message");
});

/** The specifiers src/npm.ts loads: the keys of its `Packages` interface, sorted. */
async function loadedPackages(): Promise<string[]> {
  const npm = await Deno.readTextFile(new URL("../src/npm.ts", import.meta.url));
  const block = npm.slice(
    npm.indexOf("interface Packages {"),
    npm.indexOf("\n}\n", npm.indexOf("interface Packages")),
  );
  return [...block.matchAll(/^ {2}"?([^"\s:/][^":]*)"?:(?: |$)/gm)].map((match) => match[1]).sort();
}

Deno.test("the npm packages src/npm.ts loads are the ones compile embeds and the install caches", async () => {
  const read = (path: string) => Deno.readTextFile(new URL(`../${path}`, import.meta.url));
  const loaded = await loadedPackages();
  const listed = [...(await read("src/_npm_packages.js")).matchAll(/^import "([^"]+)";$/gm)]
    .map((match) => match[1]).sort();
  assert(loaded.length > 10, `npm.ts's list was not found: ${loaded}`);
  assertEquals(listed, loaded, "src/_npm_packages.js and src/npm.ts list different packages");
  const config = JSON.parse(await read("deno.json"));
  const mapped = Object.keys(config.imports);
  for (const name of loaded) {
    assert(mapped.some((key) => name === key || name.startsWith(`${key}/`)), `${name} is not in deno.json`);
  }
  // Every build embeds them: tern loads them with a specifier deno compile cannot see.
  const compiles = [
    ...(await read(".github/workflows/release.yml")).split("\n"),
    ...(await read(".github/workflows/action-e2e.yml")).split("\n"),
  ].filter((line: string) => line.includes("deno compile "));
  assertEquals(compiles.length, 2, compiles.join("\n"));
  for (const line of compiles) assertMatch(line, / --include src\/_npm_packages\.js /);
  // `deno task compile` runs scripts/compile.ts, which passes the same --include.
  assertMatch(config.tasks.compile, / scripts\/compile\.ts /);
  assertMatch(await read("scripts/compile.ts"), /"--include", "src\/_npm_packages\.js"/);
  // And the installed command has them in the cache before its first run.
  assertMatch(
    config.tasks.install,
    /deno run --allow-env --allow-read --allow-run "\$PWD\/scripts\/cache_packages\.ts"/,
  );
  assertMatch(await read("scripts/cache_packages.ts"), /"\.\.\/src\/_npm_packages\.js"/);
});

Deno.test("the module graph compile embeds (--include src/_npm_packages.js) holds each specifier tern loads", async () => {
  const root = new URL("../", import.meta.url);
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const imports: Record<string, string> = config.imports;
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", "deno.json", "src/_npm_packages.js"],
    cwd: root,
    stderr: "inherit",
  }).output();
  assertEquals(info.code, 0);
  const graph: { modules: { kind: string; specifier: string }[] } = JSON.parse(
    new TextDecoder().decode(info.stdout),
  );
  const embedded = graph.modules.filter((module) => module.kind === "npm").map((module) => module.specifier);
  const names = await loadedPackages();
  assert(names.length > 10, `npm.ts's list was not found: ${names}`);
  for (const name of names) {
    // As Deno maps it: the exact key, or the longest key that is a folder of it (`pkg/` + the subpath).
    const key = Object.keys(imports).filter((key) => name === key || name.startsWith(`${key}/`))
      .sort((a, b) => b.length - a.length)[0];
    const mapped = imports[key] + name.slice(key.length);
    assert(embedded.includes(mapped.replace(/^npm:/, "npm:/")), `${name} (${mapped}) is not in ${embedded}`);
  }
});
