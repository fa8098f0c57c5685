/**
 * The one temp-project helper of the tests: a real project directory (its real, symlink-resolved path) holding
 * the given files, with two neighbours outside it that escapes aim at, all removed when the test's
 * `await using` scope ends.
 */
import { dirname, join } from "node:path";
import { spillText } from "../../src/tools/spill.ts";
import type { ToolContext } from "../../src/tools/tool.ts";

/** A temp project and its neighbours. */
export interface TempProject extends AsyncDisposable {
  /** Real path of the project root. */
  root: string;
  /** A directory next to the root, outside it, holding `secret.txt` ("outside secret"). */
  outside: string;
  /** `<root>-evil`: a sibling whose name starts with the root's name, holding `secret.txt`. */
  evil: string;
  /** A context for tool runs in this project (spills go under the root). */
  ctx: ToolContext;
}

/** Creates `parent/{proj, proj-evil, outside}` in a fresh temp dir, with `files` (path → text) in proj. */
export async function tempProject(files: Record<string, string> = {}): Promise<TempProject> {
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-test-" }));
  const root = join(parent, "proj");
  const evil = join(parent, "proj-evil");
  const outside = join(parent, "outside");
  for (const dir of [root, evil, outside]) await Deno.mkdir(dir);
  await Deno.writeTextFile(join(outside, "secret.txt"), "outside secret\n");
  await Deno.writeTextFile(join(evil, "secret.txt"), "evil secret\n");
  for (const [name, content] of Object.entries(files)) {
    const file = join(root, name);
    await Deno.mkdir(dirname(file), { recursive: true });
    await Deno.writeTextFile(file, content);
  }
  const ctx = {
    root,
    signal: new AbortController().signal,
    spill: (text: string) => spillText(root, "test", text),
  };
  return { root, outside, evil, ctx, [Symbol.asyncDispose]: () => Deno.remove(parent, { recursive: true }) };
}
