/**
 * Commands that delete or discard project state: the sandbox lets them write inside the project, so they
 * could destroy uncommitted work unasked. Recognised here so approval asks for them, even sandboxed. Like
 * the deny-list this reads command words, not intent: it names the usual ways, it is not a wall.
 */
import { commandWords, splitOptions } from "./deny_list.ts";
import { type Command, lex, parse, type Word } from "./shell_words.ts";

/** Substitutions and `bash -c` scripts nested deeper than this are not looked into. */
const MAX_DEPTH = 4;

const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh"]);

/** Why `command` deletes or discards project state ("git clean -f deletes untracked files"), or undefined. */
export function destructiveReason(command: string): string | undefined {
  return scan(command, 0);
}

function scan(script: string, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const { tokens, heredocScripts } = lex(script);
  for (const inner of heredocScripts) {
    const reason = scan(inner, depth + 1);
    if (reason) return reason;
  }
  for (const pipeline of parse(tokens)) {
    for (const command of pipeline) {
      const reason = classify(command, depth) ?? inSubstitutions(command, depth);
      if (reason) return reason;
    }
  }
  return undefined;
}

function inSubstitutions(command: Command, depth: number): string | undefined {
  for (const word of [...command.words, ...command.redirects]) {
    for (const inner of word.subs) {
      const reason = scan(inner, depth + 1);
      if (reason) return reason;
    }
  }
  return undefined;
}

function classify(command: Command, depth: number): string | undefined {
  const found = commandWords(command);
  if (!found) return undefined;
  const { name, args } = found;
  const texts = args.map((word) => word.text);
  if (name === "git") return gitReason(args);
  if (name === "rm") {
    const { letters, long } = splitOptions(args);
    if (/[rR]/.test(letters) || long.includes("--recursive")) return "rm -r deletes whole directories";
  }
  if (name === "find" && texts.some((text) => text === "-delete")) {
    return "find -delete deletes what it finds";
  }
  if (name === "find" && texts.some((text, i) => /^-exec(dir)?$/.test(text) && texts[i + 1] === "rm")) {
    return "find -exec rm deletes what it finds";
  }
  if (name === "shred") return "shred destroys file contents";
  if (name === "truncate") return "truncate cuts files short";
  if (SHELLS.has(name)) {
    const flag = texts.findIndex((text) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(text));
    if (flag >= 0 && flag + 1 < texts.length) return scan(texts[flag + 1], depth + 1);
  }
  if (name === "eval") return scan(texts.join(" "), depth + 1);
  return undefined;
}

/** git subcommands that throw away work that is not committed (or not yet pushed). */
function gitReason(args: Word[]): string | undefined {
  // Past global options such as `-C dir` or `-c key=value`.
  let i = 0;
  while (i < args.length && args[i].text.startsWith("-")) i += /^-[Cc]$/.test(args[i].text) ? 2 : 1;
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  const { letters, long, operands } = splitOptions(rest);
  const texts = rest.map((word) => word.text);
  switch (sub) {
    case "clean":
      if (letters.includes("f") || long.includes("--force")) return "git clean -f deletes untracked files";
      return undefined;
    case "reset":
      return long.includes("--hard") || long.includes("--merge") || long.includes("--keep")
        ? "git reset --hard discards uncommitted changes"
        : undefined;
    case "checkout":
      // `git checkout -- file`, `git checkout .` and a forced switch overwrite changes in the work tree.
      if (texts.includes("--") || letters.includes("f") || long.includes("--force")) {
        return "git checkout over files discards their uncommitted changes";
      }
      return operands.some((word) => word.text === "." || word.text === "*")
        ? "git checkout . discards uncommitted changes"
        : undefined;
    case "restore":
      // `--staged` alone only unstages; anything touching the work tree discards changes.
      if (long.includes("--staged") && !long.includes("--worktree") && !letters.includes("W")) {
        return undefined;
      }
      return "git restore discards uncommitted changes";
    case "stash":
      return texts[0] === "drop" || texts[0] === "clear" ? "git stash drop deletes stashed work" : undefined;
    case "branch":
      return letters.includes("D") || (letters.includes("d") && long.includes("--force"))
        ? "git branch -D deletes a branch and its unmerged commits"
        : undefined;
    case "rm":
      return "git rm deletes files";
    default:
      return undefined;
  }
}
