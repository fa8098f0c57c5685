import { assertEquals, assertStrictEquals } from "../../support/assert.ts";
import { lex, parse } from "../../../src/tools/shell/shell_words.ts";

function commands(script: string): string[][][] {
  return parse(lex(script).tokens).map((pipeline) =>
    pipeline.map((command) => command.words.map((w) => w.text))
  );
}

Deno.test("lex() and parse() split pipelines and commands and remove quotes", () => {
  assertEquals(commands(`a 'b c' "d"e; f | g && h\ni`), [[["a", "b c", "de"]], [["f"], ["g"]], [["h"]], [[
    "i",
  ]]]);
});

Deno.test("parse() sets redirection targets apart from the words", () => {
  const [[command]] = parse(lex("echo hi > out.txt 2>&1").tokens);
  assertEquals(command.words.map((w) => w.text), ["echo", "hi", "2"]);
  assertEquals(command.redirects.map((w) => w.text), ["out.txt", "1"]);
});

Deno.test("lex() finds the scripts of substitutions, also inside double quotes", () => {
  const [word] = lex(`"$(id -u) \`whoami\`"`).tokens.flatMap((t) => "word" in t ? [t.word] : []);
  assertEquals(word.subs, ["id -u", "whoami"]);
  assertStrictEquals(word.quoted, true);
});

Deno.test("lex() skips here-document bodies and keeps substitutions only from unquoted ones", () => {
  const quoted = lex("cat <<'EOF'\n$(a)\nEOF\necho done");
  assertEquals(quoted.heredocScripts, []);
  assertEquals(commands("cat <<'EOF'\nsudo x\nEOF\necho done"), [[["cat"]], [["echo", "done"]]]);
  assertEquals(lex("cat <<-EOF\n\t$(b)\n\tEOF\n").heredocScripts, ["b"]);
});

Deno.test("lex() drops comments", () => {
  assertEquals(commands("echo a # sudo b"), [[["echo", "a"]]]);
});
