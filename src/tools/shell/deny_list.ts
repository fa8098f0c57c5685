/**
 * The deny-list execute_command checks before running anything: a speed bump for the obvious disasters
 * (`sudo`, `rm -rf ~`, `curl | sh`, ...), not a wall. A determined command gets past any list like this;
 * the sandbox and the approval prompt are what contain it. The check is word-aware, so `grep sudo file`
 * or `echo "rm -rf /"` pass, while `ls; sudo id`, `FOO=1 sudo id` and `echo $(sudo id)` are caught.
 */

import { type Command, lex, parse, type Word } from "./shell_words.ts";

const SUDO = "`sudo` (running a command as root)";
const RM = "`rm -rf` of /, ~, $HOME or * (deleting the system, the home directory or the whole project)";
const MKFS = "`mkfs` (formatting a file system)";
const DD = "`dd of=/dev/…` (writing raw bytes to a device)";
const PIPE_TO_SHELL = "`curl … | sh` (running a script straight from the network)";
const FORK_BOMB = "a fork bomb (`:(){ :|:& };:`, any function name)";
const FIND_DELETE = "`find / -delete` or `find ~ -delete` (deleting the system or the home directory)";
const POWER = "`shutdown`/`reboot`/`halt`/`poweroff`";
const CHMOD = "`chmod -R`/`chown -R` of / or ~ (changing the owner or mode of every file)";
const DISK = "a write to a disk device (/dev/sd*)";

/** How deep `bash -c "..."`, `eval` and `$(...)` nest before the check stops looking inside. */
const MAX_DEPTH = 4;

/**
 * Longest command checked, in characters. Longer ones are refused outright: a script that size belongs in a
 * file, and the check must stay fast whatever the model sends (it is linear in the length, never worse).
 */
export const MAX_COMMAND_CHARS = 100_000;

const TOO_LONG =
  // Written out: toLocaleString would load the locale data (about 12 ms) at every start of tern.
  `a command over 100,000 characters (the cap on a command's ` +
  "length: write the script to a file with write_file and run the file instead)";

/**
 * Fork-bomb tokens: a run of name characters, or one of `( ) { } | & ;`. One left-to-right pass of a
 * regular expression that cannot backtrack (each alternative is a single character class).
 */
const BOMB_TOKEN = /[^\s(){}|&;<>'"$\x60]+|[(){}|&;]/g;

/**
 * `NAME(){ NAME|NAME& }` (any name, any spacing), also written `function NAME { ... }` or
 * `function NAME() { ... }`. Found in one pass over the tokens, so the check is linear in the length.
 */
function isForkBomb(script: string): boolean {
  const tokens = script.match(BOMB_TOKEN) ?? [];
  const at = (i: number) => tokens[i] ?? "";
  const isName = (text: string) => text !== "" && !"(){}|&;".includes(text);
  for (let i = 0; i < tokens.length; i++) {
    let name: string;
    let body: number;
    if (at(i) === "function" && isName(at(i + 1))) {
      name = at(i + 1);
      body = at(i + 2) === "(" && at(i + 3) === ")" ? i + 4 : i + 2;
    } else if (isName(at(i)) && at(i + 1) === "(" && at(i + 2) === ")") {
      name = at(i);
      body = i + 3;
    } else continue;
    if (
      at(body) === "{" && at(body + 1) === name && at(body + 2) === "|" && at(body + 3) === name &&
      at(body + 4) === "&"
    ) return true;
  }
  return false;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish"]);
const DOWNLOADERS = new Set(["curl", "wget"]);
const POWER_COMMANDS = new Set(["shutdown", "reboot", "halt", "poweroff"]);
const HOME_TARGETS = new Set(["~", "~/*", "$HOME", "${HOME}", "$HOME/*", "${HOME}/*"]);
const SYSTEM_TARGETS = new Set(["/", "/*", ...HOME_TARGETS]);
const PROJECT_GLOBS = new Set(["*", "./*"]);
const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk)/;
const HARMLESS_DEVICE = /^\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/;

/**
 * Words that may stand before the real command word: keywords, and wrappers that run their arguments
 * (`env FOO=1 sudo x`, `nohup sudo x`, `xargs sudo x`). Their options are skipped too.
 */
const PREFIXES = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
  "time",
  "exec",
  "command",
  "builtin",
  "nohup",
  "env",
  "nice",
  "ionice",
  "timeout",
  "stdbuf",
  "xargs",
  "setsid",
]);

/** Why `command` is refused (which deny-list entry it matches), or undefined when it may run. Pure. */
export function deniedReason(command: string): string | undefined {
  if (command.length > MAX_COMMAND_CHARS) return TOO_LONG;
  return check(command, 0);
}

function check(script: string, depth: number): string | undefined {
  if (isForkBomb(script)) return FORK_BOMB;
  if (depth > MAX_DEPTH) return undefined;
  const { tokens, heredocScripts } = lex(script);
  for (const inner of heredocScripts) {
    const reason = check(inner, depth + 1);
    if (reason) return reason;
  }
  for (const pipeline of parse(tokens)) {
    const reason = checkPipeline(pipeline);
    if (reason) return reason;
    for (const command of pipeline) {
      const found = checkCommand(command, depth) ?? checkSubstitutions(command, depth);
      if (found) return found;
    }
  }
  return undefined;
}

/** The command's name (basename of its first real word) and its arguments, past assignments and wrappers. */
export function commandWords(command: Command): { name: string; args: Word[] } | undefined {
  const words = command.words;
  let i = 0;
  while (i < words.length) {
    const text = words[i].text;
    if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(text)) i++;
    else if (PREFIXES.has(text)) {
      // `command -v sudo` only asks where sudo is.
      if (text === "command" && /^-[a-zA-Z]*[vV]/.test(words[i + 1]?.text ?? "")) return undefined;
      i++;
      while (i < words.length && /^(-.*|[\d.]+[smhd]?|\{\})$/.test(words[i].text)) i++;
    } else break;
  }
  if (i >= words.length) return undefined;
  return { name: words[i].text.replace(/^.*\//, ""), args: words.slice(i + 1) };
}

function names(pipeline: Command[]): string[] {
  return pipeline.map((command) => commandWords(command)?.name ?? "");
}

/** `curl ... | sh`: a downloader earlier in the pipeline feeding a shell later in it. */
function checkPipeline(pipeline: Command[]): string | undefined {
  const stages = names(pipeline);
  const download = stages.findIndex((name) => DOWNLOADERS.has(name));
  if (download >= 0 && stages.slice(download + 1).some((name) => SHELLS.has(name))) return PIPE_TO_SHELL;
  return undefined;
}

/** `$(...)`, backticks and `<(...)` are commands too; a shell fed by a download is `curl | sh`. */
function checkSubstitutions(command: Command, depth: number): string | undefined {
  const name = commandWords(command)?.name ?? "";
  const runsText = SHELLS.has(name) || name === "eval" || name === "source" || name === ".";
  for (const word of [...command.words, ...command.redirects]) {
    for (const inner of word.subs) {
      const reason = check(inner, depth + 1);
      if (reason) return reason;
      if (runsText && downloads(inner)) return PIPE_TO_SHELL;
    }
  }
  return undefined;
}

function downloads(script: string): boolean {
  return parse(lex(script).tokens).some((pipeline) => names(pipeline).some((name) => DOWNLOADERS.has(name)));
}

/** Flags before `--` (e.g. `-rf`, `--force`) and the operands; `letters` are the short-option letters. */
export function splitOptions(args: Word[]): { letters: string; long: string[]; operands: Word[] } {
  let letters = "";
  const long: string[] = [];
  const operands: Word[] = [];
  let ended = false;
  for (const word of args) {
    const text = word.text;
    if (ended || !text.startsWith("-") || text === "-") operands.push(word);
    else if (text === "--") ended = true;
    else if (text.startsWith("--")) long.push(text);
    else letters += text.slice(1);
  }
  return { letters, long, operands };
}

/** `~/`, `$HOME/` and `//` name the same directory as `~`, `$HOME` and `/`. */
function normalTarget(text: string): string {
  const collapsed = text.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 ? collapsed.replace(/\/+$/, "") : collapsed;
}

function hitsTargets(operands: Word[], withProjectGlob: boolean): boolean {
  return operands.some((word) => {
    const target = normalTarget(word.text);
    return SYSTEM_TARGETS.has(target) || (withProjectGlob && !word.quoted && PROJECT_GLOBS.has(target));
  });
}

function checkRecursive(name: string, args: Word[]): string | undefined {
  const { letters, long, operands } = splitOptions(args);
  const recursive = /[rR]/.test(letters) || long.includes("--recursive");
  if (name === "rm" && recursive) {
    return hitsTargets(operands, true) ? RM : undefined;
  }
  if (/^(chmod|chown|chgrp)$/.test(name) && (letters.includes("R") || long.includes("--recursive"))) {
    return hitsTargets(operands, false) ? CHMOD : undefined;
  }
  return undefined;
}

/** `find / -delete` (or `-exec rm`): a start path of /, ~ or $HOME, and an action that deletes. */
function findDeletesEverything(args: Word[]): boolean {
  const firstExpression = args.findIndex((word) => /^[-(!]/.test(word.text) && !/^-[HLP]$/.test(word.text));
  const starts = firstExpression < 0 ? args : args.slice(0, firstExpression);
  const paths = starts.filter((word) => !/^-[HLP]$/.test(word.text));
  if (!paths.some((word) => SYSTEM_TARGETS.has(normalTarget(word.text)))) return false;
  const texts = args.map((word) => word.text);
  return texts.includes("-delete") ||
    texts.some((text, i) => /^-exec(dir)?$/.test(text) && /^(\/.*\/)?rm$/.test(texts[i + 1] ?? ""));
}

function checkCommand(command: Command, depth: number): string | undefined {
  if (command.redirects.some((word) => DISK_DEVICE.test(word.text))) return DISK;
  const found = commandWords(command);
  if (!found) return undefined;
  const { name, args } = found;
  const texts = args.map((word) => word.text);
  if (name === "sudo" || name === "doas") return SUDO;
  if (/^mkfs/.test(name) || name === "mke2fs") return MKFS;
  if (POWER_COMMANDS.has(name)) return POWER;
  if (name === "systemctl" && texts.some((text) => POWER_COMMANDS.has(text))) return POWER;
  if (name === "dd") {
    const target = texts.find((text) => text.startsWith("of="))?.slice(3) ?? "";
    if (target.startsWith("/dev/") && !HARMLESS_DEVICE.test(target)) return DD;
  }
  if ((name === "tee" || name === "cp") && texts.some((text) => DISK_DEVICE.test(text))) return DISK;
  if (name === "find" && findDeletesEverything(args)) return FIND_DELETE;
  const recursive = checkRecursive(name, args);
  if (recursive) return recursive;
  if (SHELLS.has(name)) {
    // `bash -c "script"` (also `-lc`, `-ec`): the script is checked like the command itself.
    const flag = texts.findIndex((text) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(text));
    if (flag >= 0 && flag + 1 < texts.length) return check(texts[flag + 1], depth + 1);
  }
  if (name === "eval") return check(texts.join(" "), depth + 1);
  return undefined;
}
