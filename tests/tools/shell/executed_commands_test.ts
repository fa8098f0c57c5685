import { assertEquals } from "../../support/assert.ts";
import { executedCommands, type Found } from "../../../src/tools/shell/executed_commands.ts";

/** The commands as text ("rm f", "rm …" when arguments join at run time, "?" when unclear). */
function runs(line: string): string[] {
  const show = (found: Found) => found === null ? "?" : found.words.join(" ") + (found.open ? " …" : "");
  return executedCommands(line).map(show);
}

Deno.test("executedCommands() reads through xargs, shells on stdin, here-strings and here-documents", () => {
  assertEquals(runs("echo f | xargs rm"), ["echo f", "xargs rm", "rm …"]);
  assertEquals(runs("echo 'rm f' | sh"), ["echo rm f", "sh", "rm f"]);
  assertEquals(runs("bash <<< 'rm f'"), ["bash", "rm f"]);
  assertEquals(runs("sh <<EOF\nrm f\nEOF"), ["sh", "rm f"]);
  assertEquals(runs("cat <<EOF | bash\nrm f\nEOF"), ["cat", "bash", "rm f"]);
  assertEquals(runs("curl -s x | bash"), ["curl -s x", "bash", "?"], "a pipe of unknown text into a shell");
  assertEquals(runs("bash -s < setup.sh"), ["bash -s"], "a script file runs what it holds: not read");
  assertEquals(runs("bash"), ["bash"], "stdin is closed: nothing to read");
  assertEquals(runs("exec 3<<<'rm f'; bash <&3").at(-1), "?", "another descriptor's text is unknown");
  assertEquals(runs("exec <<< 'rm f'; bash").at(-1), "rm f", "exec gives the rest of the script its stdin");
});

Deno.test("executedCommands() decodes ANSI-C quoting and reads -c scripts and eval", () => {
  assertEquals(runs("$'\\x72m' f"), ["rm f"]);
  assertEquals(runs("$'\\162\\155' f"), ["rm f"]);
  assertEquals(runs(`sh -c 'rm "$1"' _ f`), ["sh -c …", "rm …"]);
  assertEquals(runs("eval 'rm f'"), ["eval rm f", "rm f"]);
  assertEquals(runs("bash -ic 'myrm f'"), ["bash -ic myrm f", "?", "myrm f"], "rc files may define aliases");
  assertEquals(runs("bash --login -c ls"), ["bash --login -c ls", "?", "ls"]);
});

Deno.test("executedCommands() finds the command behind wrappers and their options", () => {
  assertEquals(runs("strace -f -o log rm f").at(-1), "rm f");
  assertEquals(runs("timeout -s KILL 5 rm f").at(-1), "rm f");
  assertEquals(runs("nice -n 5 nohup env A=1 rm f").at(-1), "rm f");
  assertEquals(runs("sudo -u root rm f").at(-1), "rm f");
  assertEquals(runs("command rm f").at(-1), "rm f");
  assertEquals(runs("builtin rm f").at(-1), "rm f");
  assertEquals(runs("exec -a x rm f").at(-1), "rm f");
  assertEquals(runs("env -S 'rm f'").at(-1), "rm f");
  assertEquals(runs("flock /tmp/l -c 'rm f'").at(-1), "rm f");
  assertEquals(runs("watch -n 1 rm f").at(-1), "rm f");
  assertEquals(runs("busybox rm f").at(-1), "rm f");
  assertEquals(runs("command -v rm"), ["command -v rm"], "-v only asks where it is");
});

Deno.test("executedCommands() reads trap, alias, find -exec and -delete", () => {
  assertEquals(runs("trap 'rm f' EXIT"), ["trap rm f EXIT", "rm f"]);
  assertEquals(runs("trap - EXIT"), ["trap - EXIT"]);
  assertEquals(runs("alias x='rm'"), ["alias x=rm", "rm …"]);
  assertEquals(runs("find . -name f -exec rm {} \\;"), ["find . -name f -exec rm …", "rm …"]);
  assertEquals(runs("find . -exec rm -f {} +").at(-1), "rm -f …");
  assertEquals(runs("find . -execdir sh -c 'rm x' \\;").at(-1), "rm x");
  assertEquals(runs("find . -name f -delete").at(-1), "rm …", "-delete deletes as rm does");
});

Deno.test("executedCommands() reads git's -c programs, and a command git does not have is unclear", () => {
  assertEquals(runs("git -c alias.x='!rm f' x").slice(1), ["rm f", "?"]);
  assertEquals(runs("git -c core.pager='rm f' log").slice(1), ["rm f"]);
  assertEquals(runs("git x"), ["git x", "?"], "an alias, or a git-x program");
  assertEquals(runs("git rebase -x 'rm f' HEAD~1").at(-1), "rm f");
  assertEquals(runs("git bisect run rm f").at(-1), "rm f");
  assertEquals(runs("git -C sub status"), ["git -C sub status"]);
  assertEquals(runs("git -c include.path=x status").at(-1), "?");
});

Deno.test("executedCommands() counts inline code for an interpreter as unclear, a script file not", () => {
  for (
    const line of [`perl -e 'unlink "f"'`, `python3 -c 'import os; os.remove("f")'`, "node -e x", "ruby -e x"]
  ) {
    assertEquals(runs(line).at(-1), "?", line);
  }
  assertEquals(runs("echo 'import os' | python3").at(-1), "?", "code on stdin");
  assertEquals(runs(`awk 'BEGIN{system("rm f")}'`).at(-1), "?");
  assertEquals(runs(`awk -F : '{print $1}' f`).includes("?"), false);
  assertEquals(runs("sed '1e rm f' g").at(-1), "?");
  assertEquals(runs("sed -i 's/a/b/' f").includes("?"), false);
  assertEquals(runs("python3 script.py"), ["python3 script.py"]);
  assertEquals(runs("parallel rm ::: a b").at(-1), "?");
});

Deno.test("executedCommands() keeps the known words of a command whose later words expand", () => {
  assertEquals(runs("rm $f"), ["rm …"]);
  assertEquals(runs("g=rm; $g f"), ["?"]);
  assertEquals(runs("PAGER='rm f' git log"), ["rm f", "git log"]);
  assertEquals(runs("BASH_ENV=x bash -c ls"), ["?", "bash -c ls", "ls"]);
  assertEquals(runs("function f { rm x; }"), ["rm x"]);
  assertEquals(runs("[ -f x ] && [[ -d y ]]"), ["[ -f x ]", "[[ -d y ]]"], "test brackets are not globs");
});
