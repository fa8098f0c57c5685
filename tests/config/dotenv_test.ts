import { assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { join } from "node:path";
import { loadDotenv, parseDotenv } from "../../src/config/dotenv.ts";
import { tempProject } from "../support/temp_project.ts";

/** An empty temp project. */
const tempDir = () => tempProject();

Deno.test("parseDotenv() reads KEY=VALUE lines, skipping blank lines and comments", () => {
  const text = "# a comment\n\nA=1\n  B = two words  \n   # indented comment\nC=\n";
  assertEquals(parseDotenv(text), { values: { A: "1", B: "two words", C: "" }, warnings: [] });
});

Deno.test("parseDotenv() accepts an export prefix", () => {
  assertEquals(parseDotenv("export KEY=value\nexport  OTHER='x'"), {
    values: { KEY: "value", OTHER: "x" },
    warnings: [],
  });
});

Deno.test("parseDotenv() keeps single-quoted values literally", () => {
  assertEquals(parseDotenv(String.raw`A='a\nb # not a comment' # comment`).values, {
    A: String.raw`a\nb # not a comment`,
  });
});

Deno.test("parseDotenv() expands escapes in double-quoted values", () => {
  const text = String.raw`A="line1\nline2\ttab \"quoted\" back\\slash \x"`;
  assertEquals(parseDotenv(text).values, { A: 'line1\nline2\ttab "quoted" back\\slash \\x' });
});

Deno.test("parseDotenv() strips a trailing comment from a bare value but keeps # inside it", () => {
  assertEquals(parseDotenv("A=abc # note\nB=abc#def\nC=#only").values, { A: "abc", B: "abc#def", C: "" });
});

Deno.test("parseDotenv() lets a later line override an earlier one", () => {
  assertEquals(parseDotenv("A=1\nA=2").values, { A: "2" });
});

Deno.test("parseDotenv() handles CRLF line endings and a byte order mark", () => {
  assertEquals(parseDotenv("\uFEFFA=1\r\nB=2\r\n"), { values: { A: "1", B: "2" }, warnings: [] });
});

Deno.test("parseDotenv() skips malformed lines and reports each by line number without its value", () => {
  const text = [
    "GOOD=1",
    "just some words",
    "1BAD=x",
    "A B=x",
    'OPEN="secret-value',
    "SINGLE='secret-value",
    "AFTER='x' trailing",
    "=nokey",
  ].join("\n");
  assertEquals(parseDotenv(text), {
    values: { GOOD: "1" },
    warnings: [
      ".env line 2: expected KEY=VALUE",
      ".env line 3: the name before '=' must be letters, digits and '_'",
      ".env line 4: the name before '=' must be letters, digits and '_'",
      ".env line 5: missing closing double quote",
      ".env line 6: missing closing single quote",
      ".env line 7: unexpected text after the closing quote",
      ".env line 8: the name before '=' must be letters, digits and '_'",
    ],
  });
});

Deno.test("loadDotenv() gives no values and no warnings when the root has no .env", async () => {
  await using dir = await tempDir();
  assertEquals(await loadDotenv(dir.root), { values: {}, warnings: [] });
});

Deno.test("loadDotenv() reads .env from the root", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.root, ".env"), "DEEPSEEK_API_KEY=sk-test\nbroken\n");
  assertEquals(await loadDotenv(dir.root), {
    values: { DEEPSEEK_API_KEY: "sk-test" },
    warnings: [".env line 2: expected KEY=VALUE"],
  });
});

Deno.test("loadDotenv() warns and carries on when .env cannot be read as a file", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.root, ".env"));
  const result = await loadDotenv(dir.root);
  assertEquals(result.values, {});
  assertStrictEquals(result.warnings.length, 1);
  assertMatch(result.warnings[0], /^\.env: could not be read \(.+\); ignored$/);
});
