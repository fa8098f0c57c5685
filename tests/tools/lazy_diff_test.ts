import { assertStrictEquals } from "../support/assert.ts";
import { fileURLToPath } from "node:url";

const PROJECT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Runs `script` in a fresh Deno with an empty cache that may not download: any npm package it loads fails
 * to, and says which (this test process may have loaded the package already).
 */
async function withoutPackages(script: string): Promise<string> {
  const cache = await Deno.makeTempDir({ prefix: "tern-lazy-diff-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--cached-only", "--config", `${PROJECT}deno.json`, script],
      cwd: PROJECT,
      env: { DENO_DIR: cache },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(output.stdout).trim() + new TextDecoder().decode(output.stderr).trim();
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
}

Deno.test("the diff package waits for the first edit: tools, the headless front end and tool lines load without it", async () => {
  const src = `file://${PROJECT}src`;
  const said = await withoutPackages(`
    await import("${src}/tools/builtin.ts");
    await import("${src}/cli/headless/cli.ts");
    await import("${src}/cli/render/tool_lines.ts");
    const { loadDiff } = await import("${src}/text_diff.ts");
    console.log("started without it");
    await loadDiff().catch((error) => console.log(error.message.split(" (")[0]));
  `);
  assertStrictEquals(said, "started without it\ncannot load the npm package diff");
});
