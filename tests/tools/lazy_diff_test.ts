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

Deno.test("the diff package waits for a diff view: tools, the headless front end and tool lines load without it", async () => {
  const src = `file://${PROJECT}src`;
  const said = await withoutPackages(`
    await import("${src}/tools/builtin.ts");
    await import("${src}/cli/headless/cli.ts");
    await import("${src}/cli/render/tool_lines.ts");
    const { lineDelta } = await import("${src}/tools/edit/line_delta.ts");
    const { loadDiff } = await import("${src}/text_diff.ts");
    const { renderDiff } = await import("${src}/cli/render/diff_view.ts");
    console.log("started without it", JSON.stringify(lineDelta("a\\n", "b\\n")));
    await loadDiff().catch((error) => console.log(error.message.split(" (")[0]));
    const view = renderDiff("a.txt", "a\\n", "b\\n", { useColor: false }).split("\\n")[2];
    console.log(view.split(" (Failed")[0], view.endsWith("; +1 −1 lines)"));
  `);
  assertStrictEquals(
    said,
    'started without it {"added":1,"removed":1}\ncannot load the npm package diff\n' +
      "(diff not shown: cannot load the npm package diff true",
  );
});
