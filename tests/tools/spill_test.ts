import {
  assert,
  assertEquals,
  assertMatch,
  assertNotStrictEquals,
  assertRejects,
  assertStrictEquals,
} from "../support/assert.ts";
import { join } from "node:path";
import { grepCode } from "../../src/tools/grep_code.ts";
import { limitResult, SPILL_DIR, SPILL_THRESHOLD, spillText, spillView } from "../../src/tools/spill.ts";
import { call, readFileTool, tempProject } from "./_helpers.ts";
import { testNeeding } from "../support/requires.ts";

/** 100,000 characters in numbered lines, so head, tail and cut can be told apart. */
function longText(): string {
  const lines = Array.from(
    { length: 5000 },
    (_, i) => `line ${String(i + 1).padStart(5, "0")} ${"x".repeat(8)}`,
  );
  const text = `${lines.join("\n")}\n`;
  assertStrictEquals(text.length, 100_000);
  return text;
}

Deno.test("limitResult() spills a 100,000-character result whole and shows head, tail, cut and path", async () => {
  await using p = await tempProject();
  const text = longText();
  const limited = await limitResult(p.root, "execute_command", text);
  const view = limited.content;
  const path = /the full text is saved in (\.tern\/tool-outputs\/\S+\.txt)\./.exec(view)?.[1];
  assert(path, view.slice(0, 300));
  assertStrictEquals(limited.savedAs, path);
  assertMatch(
    path,
    /^\.tern\/tool-outputs\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-execute_command-\d+\.txt$/,
  );
  assertStrictEquals(await Deno.readTextFile(join(p.root, path)), text);
  assert(view.length < SPILL_THRESHOLD, `${view.length}`);
  assertMatch(view, /^\[Output too long \(100000 characters, 5000 lines\): the full text is saved in /);
  assertMatch(
    view,
    /Page it with read_file \(path ".+", offset and limit in lines\) or search it with grep_code/,
  );
  assertMatch(view, /\nline 00001 x{8}\n/);
  assertMatch(view, /\nline 05000 x{8}\n$/);
  // The cut falls between whole lines and names them, so read_file can fetch exactly what is missing.
  const cut = /\n… \[(\d+) characters cut, lines (\d+)–(\d+)\] …\n/.exec(view);
  assert(cut, "cut marker");
  const [first, last] = [Number(cut[2]), Number(cut[3])];
  assertMatch(view, new RegExp(`\\nline ${String(first - 1).padStart(5, "0")} x{8}\\n… \\[`));
  assertMatch(view, new RegExp(`\\] …\\nline ${String(last + 1).padStart(5, "0")} x{8}\\n`));
});

Deno.test("limitResult() leaves a result of 32,000 characters or fewer untouched and writes nothing", async () => {
  await using p = await tempProject();
  const text = "y".repeat(SPILL_THRESHOLD);
  assertEquals(await limitResult(p.root, "read_file", text), { content: text });
  await assertRejects(() => Deno.lstat(join(p.root, ".tern")), Deno.errors.NotFound);
});

Deno.test("spillText() writes atomically into .tern/tool-outputs with a .gitignore, distinct names each time", async () => {
  await using p = await tempProject();
  const first = await spillText(p.root, "grep_code", "one");
  const second = await spillText(p.root, "grep_code", "two");
  assertNotStrictEquals(first, second);
  assertStrictEquals(await Deno.readTextFile(join(p.root, second)), "two");
  assertStrictEquals(await Deno.readTextFile(join(p.root, SPILL_DIR, ".gitignore")), "*\n");
  const names = [];
  for await (const entry of Deno.readDir(join(p.root, SPILL_DIR))) names.push(entry.name);
  assertStrictEquals(names.filter((name) => name.includes(".tmp")).length, 0);
  assertStrictEquals((await Deno.stat(join(p.root, first))).mode! & 0o777, 0o600);
  assertMatch(await spillText(p.root, "bad/name", "x"), /-bad_name-\d+\.txt$/);
});

Deno.test("limitResult() never writes through a .tern symlink leading outside the project", async () => {
  await using p = await tempProject();
  await Deno.symlink(p.outside, join(p.root, ".tern"));
  assertMatch(String(await assertRejects(() => spillText(p.root, "x", "data"))), /outside the project root/);
  const { content: view, savedAs } = await limitResult(p.root, "execute_command", longText());
  assertStrictEquals(savedAs, undefined);
  assertMatch(view, /^\[Output too long \(100000 characters, 5000 lines\); it could not be saved to a file/);
  assert(view.length < SPILL_THRESHOLD);
  const left = [];
  for await (const entry of Deno.readDir(p.outside)) left.push(entry.name);
  assertEquals(left, ["secret.txt"]);
});

testNeeding(
  ["rg"],
  "a spilled file can be paged with read_file and searched with grep_code, but trees skip .tern",
  async () => {
    await using p = await tempProject();
    const path = await spillText(p.root, "execute_command", longText());
    const page = await call(readFileTool, { path, offset: 2500, limit: 2 }, p.ctx);
    assertEquals(page, {
      content:
        "  2500\tline 02500 xxxxxxxx\n  2501\tline 02501 xxxxxxxx\n(2499 more lines: call read_file with offset=2502)",
      isError: false,
    });
    for (const engine of ["ripgrep", "builtin"] as const) {
      const found = await grepCode({ pattern: "line 04321", path }, p.ctx, engine);
      assertStrictEquals(found, `${path}:4321:line 04321 xxxxxxxx\n[1 match in 1 file]`);
      assertMatch(await grepCode({ pattern: "line 04321" }, p.ctx, engine), /^No matches/);
    }
  },
);

Deno.test("spillView() marks a cut inside one long line without inventing line numbers", () => {
  const view = spillView("z".repeat(50_000), null);
  assertMatch(view, /^\[Output too long \(50000 characters, 1 line\); it could not be saved/);
  assertMatch(view, /\n… \[30000 characters cut, in line 1\] …\n/);
});

Deno.test("spillText() shows NUL bytes of command output as ␀ so the file stays readable with read_file", async () => {
  await using p = await tempProject();
  const path = await spillText(p.root, "execute_command", `before\0after\n`);
  assertStrictEquals(await Deno.readTextFile(join(p.root, path)), "before\u2400after\n");
  const page = await call(readFileTool, { path }, p.ctx);
  assertStrictEquals(page.isError, false);
  assertStrictEquals(page.content, "     1\tbefore\u2400after");
});
