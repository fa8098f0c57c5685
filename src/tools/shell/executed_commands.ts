/**
 * The commands a shell line really runs, for the permission rules: every simple command, with quotes,
 * escapes and ANSI-C quoting undone, seen through `$(...)`, `eval`, `bash -c`, shells fed on stdin
 * (pipes, here-strings, here-documents), wrappers (`env`, `timeout`, `strace`, `sudo`, `xargs`, ...), `trap`,
 * `alias`, `find -exec` and the forms in `_command_forms.ts`. What cannot be read without running the shell
 * (`$g x`, an interpreter's inline code, a git alias) is `null`: unclear. A renamed copy of a program is
 * beyond any reading of words: the sandbox is the wall, these rules a guard in front of it.
 */
import { type Command, lex, parse, type Word } from "./shell_words.ts";
import { readOptions, WRAPPERS } from "./_wrappers.ts";
import { formOf } from "./_command_forms.ts";
import type { Found, Reader, Stdin } from "./command_reading.ts";

export type { Executed, Found, Stdin } from "./command_reading.ts";

/** How deep scripts inside scripts are read; deeper is unclear. */
const MAX_DEPTH = 6;
/** A word whose text depends on expansion (`$g`, a glob, `~`, a brace list): what it becomes is unknown. */
const DYNAMIC_WORD = /[$`*?[{~]/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;
/** Words before a command that are grammar, not commands. */
const KEYWORDS = new Set(["!", "{", "}", "if", "then", "else", "elif", "do", "while", "until", "coproc"]);
/** Variables whose value is a program run later, or that make a shell or loader run code first. */
const PROGRAM_VARIABLES =
  /^(GIT_SSH_COMMAND|GIT_SSH|GIT_PAGER|PAGER|MANPAGER|GIT_EDITOR|EDITOR|VISUAL|GIT_SEQUENCE_EDITOR|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|LESSOPEN|PROMPT_COMMAND)$/;
const LOADER_VARIABLES =
  /^(BASH_ENV|ENV|LD_PRELOAD|LD_AUDIT|LD_LIBRARY_PATH|GIT_CONFIG.*|GIT_EXEC_PATH|PERL5OPT|NODE_OPTIONS|RUBYOPT|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME)$/;
const DECLARATIONS = new Set(["export", "declare", "typeset", "local", "readonly"]);
const SHELLS = /^(sh|bash|dash|zsh|ksh|mksh|ash|yash|posh|fish)$/;

/** Every command `script` runs (see the module's comment); `stdin` is what the line's first command reads. */
export function executedCommands(script: string, stdin: Stdin = "none"): Found[] {
  return walk(script, 0, stdin);
}

function walk(script: string, depth: number, stdin: Stdin): Found[] {
  if (depth > MAX_DEPTH) return [null];
  const { tokens, heredocScripts } = lex(script);
  const found = heredocScripts.flatMap((inner) => walk(inner, depth + 1, "none"));
  for (const pipeline of parse(tokens)) {
    pipeline.forEach((command, k) => {
      for (const word of [...command.words, ...command.redirects]) {
        for (const inner of word.subs) found.push(...walk(inner, depth + 1, "none"));
      }
      const input = stdinOf(command, k === 0 ? stdin : pipeline[k - 1]);
      // `exec <file` (no command) gives the rest of the script that stdin.
      if (command.words.length === 1 && command.words[0].text === "exec") stdin = input;
      found.push(...fromWords(command.words, reader(depth, input)));
    });
  }
  return found;
}

/** What a command reads on stdin: a here-string or document, a file, text a plain `echo` pipes in, or unknown. */
function stdinOf(command: Command, before: Stdin | Command): Stdin {
  if (command.input !== undefined) return { text: command.input };
  if (command.fromFile) return "file";
  if (command.fromFd) return "unknown";
  if (typeof before === "string" || "text" in before) return before;
  const words = before.words.map((word) => word.text);
  const literal = before.words.every((word) => !DYNAMIC_WORD.test(word.text) && word.subs.length === 0);
  if (words[0] === "echo" && literal && !words.some((text) => text.includes("\\") || /^-.*e/.test(text))) {
    return { text: `${words.slice(1).filter((text) => !/^-[nE]+$/.test(text)).join(" ")}\n` };
  }
  if (words[0] === "cat" && words.length === 1 && before.input !== undefined) return { text: before.input };
  return "unknown";
}

function reader(depth: number, stdin: Stdin): Reader {
  return {
    stdin,
    script: (text, input = "none") => walk(text, depth + 1, input),
    words: (words) => depth >= MAX_DEPTH ? [null] : fromWords(words, reader(depth + 1, stdin)),
  };
}

/** The commands one simple command runs: itself, and what it runs through (a wrapper, a shell, a form). */
function fromWords(words: Word[], read: Reader): Found[] {
  const found: Found[] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const text = words[i].text;
    const assignment = ASSIGNMENT.exec(text);
    if (assignment) found.push(...assigned(assignment[1], text.slice(text.indexOf("=") + 1), read));
    else if (text === "function") i++; // `function NAME { ... }`: the name is not a command
    else if (!KEYWORDS.has(text)) break;
  }
  if (i >= words.length) return found;
  const nameWord = words[i];
  const test = nameWord.text === "[" || nameWord.text === "[[";
  if ((DYNAMIC_WORD.test(nameWord.text) && !test) || nameWord.subs.length > 0 || nameWord.text === "") {
    return [...found, null];
  }
  const name = nameWord.text.replace(/^.*\//, "");
  const args = words.slice(i + 1);
  const dynamic = args.findIndex((word) => DYNAMIC_WORD.test(word.text) || word.subs.length > 0);
  const known = dynamic < 0 ? args : args.slice(0, dynamic);
  found.push({ words: [name, ...known.map((word) => word.text)], open: dynamic >= 0 });
  return [...found, ...runs(name, args, read)];
}

/** `NAME=value`: a program-valued variable's value is a script; a loader variable makes the rest unclear. */
function assigned(name: string, value: string, read: Reader): Found[] {
  if (PROGRAM_VARIABLES.test(name)) return read.script(value);
  return LOADER_VARIABLES.test(name) ? [null] : [];
}

/** What the command `name args` runs besides itself. */
function runs(name: string, args: Word[], read: Reader): Found[] {
  const texts = args.map((word) => word.text);
  if (name === "command" && /^-[a-zA-Z]*[vV]/.test(texts[0] ?? "")) return []; // only asks where it is
  if (SHELLS.test(name)) return shell(args, read);
  if (name === "eval") return read.script(texts.join(" "));
  if (name === "source" || name === ".") return [null]; // a file that may define functions and aliases
  if (name === "trap") return trapped(texts, read);
  if (name === "alias") return texts.flatMap((text) => aliased(text, read));
  if (DECLARATIONS.has(name)) {
    return texts.flatMap((text) => {
      const match = ASSIGNMENT.exec(text);
      return match ? assigned(match[1], text.slice(text.indexOf("=") + 1), read) : [];
    });
  }
  const spec = WRAPPERS[name];
  if (spec) return wrapped(name, readOptions(args, spec), read);
  return formOf(name, args, read);
}

/** A wrapper's command: its rest, or the script one of its options or its whole rest hands a shell. */
function wrapped(name: string, options: ReturnType<typeof readOptions>, read: Reader): Found[] {
  const { values, flags, rest } = options;
  const restText = rest.map((word) => word.text).join(" ");
  const scripts = [...(values.c ?? []), ...(values.command ?? []), ...(values["session-command"] ?? [])];
  if (name === "env" && (values.S || values["split-string"])) {
    const split = [...(values.S ?? []), ...(values["split-string"] ?? [])].join(" ");
    return read.script(`${split} ${restText}`);
  }
  if (/^(su|runuser|flock|script)$/.test(name) && scripts.length > 0) {
    return scripts.flatMap((script) => read.script(script));
  }
  if (name === "su" || (name === "runuser" && !values.u)) return rest.length > 0 ? [null] : [];
  if (name === "sudo" && /[si]/.test(flags) && rest.length > 0) return read.script(restText);
  if (name === "watch" && !flags.includes("x")) return rest.length > 0 ? read.script(restText) : [];
  const inner = read.words(rest);
  if (name !== "xargs") return inner;
  return inner.map((found) => found === null ? null : { ...found, open: true });
}

/** A shell: `-c script`, a script file (not read: a file runs what it holds), or its stdin as the script. */
function shell(args: Word[], read: Reader): Found[] {
  const found: Found[] = [];
  let command = false;
  let fromStdin = false;
  let operand: string | undefined;
  for (let i = 0; i < args.length && operand === undefined; i++) {
    const text = args[i].text;
    if (text === "--" || text === "-") {
      operand = text === "-" ? undefined : args[i + 1]?.text;
      break;
    }
    if (/^[-+][oO]$/.test(text) || /^--(rcfile|init-file)$/.test(text)) i++;
    else if (/^--(login|rcfile|init-file)/.test(text)) found.push(null); // rc files: aliases and functions
    else if (/^[-+]/.test(text) && !text.startsWith("--")) {
      if (text.includes("c")) command = true;
      if (text.includes("s")) fromStdin = true;
      if (/[il]/.test(text)) found.push(null);
    } else if (!text.startsWith("--")) operand = text;
  }
  if (command) return [...found, ...(operand === undefined ? [] : read.script(operand, read.stdin))];
  if (operand !== undefined && !fromStdin) return found;
  const stdin = read.stdin;
  if (stdin === "unknown") return [...found, null];
  return typeof stdin === "object" ? [...found, ...read.script(stdin.text)] : found;
}

/** `trap 'script' SIGNAL...`: the script runs later, when the signal (or EXIT) comes. */
function trapped(texts: string[], read: Reader): Found[] {
  const operands = texts[0] === "--" ? texts.slice(1) : texts;
  if (operands.length < 2 || /^-[lp]$/.test(operands[0]) || operands[0] === "-") return [];
  return read.script(operands[0]);
}

/** `alias NAME=value`: the value runs where NAME is written, with that command's words after it. */
function aliased(text: string, read: Reader): Found[] {
  const at = text.indexOf("=");
  if (at <= 0) return [];
  return read.script(text.slice(at + 1)).map((found) => found === null ? null : { ...found, open: true });
}
