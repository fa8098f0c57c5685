/**
 * Commands that run other commands in their own ways, read for the permission rules: `find -exec` and
 * `-delete`, git's `-c` settings, aliases and `rebase --exec`, inline code for an interpreter (`python3 -c`,
 * `perl -e`, `node -e`, awk's `system`, sed's `e`), and runners whose arguments cannot be read (`parallel`).
 */
import type { Word } from "./shell_words.ts";
import type { Found, Reader } from "./command_reading.ts";
import { readOptions } from "./_wrappers.ts";

/** `find -delete` deletes as `rm` does: a deny rule on `rm` covers it. */
const DELETES: Found = { words: ["rm"], open: true };

/** Interpreters, and the options that give them code on the command line. */
const INLINE_CODE: [RegExp, RegExp][] = [
  [/^(python|pypy)[0-9.]*$/, /^-[a-zA-Z]*c/],
  [/^perl[0-9.]*$/, /^-[a-zA-Z]*[eE]/],
  [/^(ruby|lua|luajit|Rscript|julia|osascript|tclsh|expect|elixir|guile)$/, /^-[a-zA-Z]*[ecE]/],
  [/^(node|nodejs|bun)$/, /^(-[a-zA-Z]*[ep]|--eval|--print)/],
  [/^php[0-9.]*$/, /^-[a-zA-Z]*[rRBEa]/],
  [/^(pwsh|powershell)$/, /^-(c|command|e|ec|encodedcommand)$/i],
  [/^(deno)$/, /^(eval|-)$/],
];
/** Programs that run commands written in forms not read here (their own argument syntax, a terminal). */
const OPAQUE = new Set([
  "parallel",
  "sem",
  "bwrap",
  "firejail",
  "proot",
  "tmux",
  "screen",
  "dtach",
  "at",
  "batch",
  "systemd-run",
  "socat",
  "xterm",
  "nsjail",
]);

/** git's own commands: any other is an alias or a `git-NAME` program, and runs what is not on the line. */
const GIT_COMMANDS = new Set(
  ("add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore check-mailmap " +
    "check-ref-format checkout checkout-index cherry cherry-pick clean clone column commit commit-graph " +
    "commit-tree config count-objects describe diff diff-files diff-index diff-tree difftool fetch " +
    "fetch-pack fmt-merge-msg for-each-ref format-patch fsck gc grep hash-object help index-pack init " +
    "interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base " +
    "merge-file merge-tree mktag mktree mv name-rev notes pack-objects pack-refs prune pull push " +
    "range-diff read-tree rebase reflog remote repack replace rerere reset restore rev-list rev-parse " +
    "revert rm shortlog show show-branch show-ref sparse-checkout stash status stripspace submodule " +
    "switch symbolic-ref tag update-index update-ref var verify-commit verify-tag version whatchanged " +
    "worktree write-tree").split(" "),
);
/** git settings whose value is a command git runs (the rest of `-c` is data). */
const GIT_PROGRAM_KEY =
  /^(core\.(pager|editor|sshcommand|askpass|fsmonitor)|pager\..*|sequence\.editor|diff\..*\.(command|textconv)|diff\.external|merge\..*\.driver|filter\..*\.(clean|smudge|process)|credential\..*helper|gpg\.(.*\.)?program|interactive\.difffilter|uploadpack\.packobjectshook|sendemail\..*|web\.browser|browser\..*\.cmd|difftool\..*\.cmd|mergetool\..*\.cmd)$/i;
/** git settings that make git read other files or run other hooks: what runs is not on the line. */
const GIT_INDIRECT_KEY = /^(core\.hookspath|include\..*|includeif\..*|alias\..*|core\.gitproxy|remote\..*)$/i;

/** What `name args` runs by its own rules, or nothing it is known for. */
export function formOf(name: string, args: Word[], read: Reader): Found[] {
  const texts = args.map((word) => word.text);
  if (name === "find") return findRuns(args, read);
  if (name === "git") return gitRuns(args, read);
  if (OPAQUE.has(name)) return texts.length > 0 ? [null] : [];
  if (/^[gmn]?awk$/.test(name)) return awkRuns(args);
  if (/^g?sed$/.test(name)) return sedRuns(texts);
  for (const [program, flag] of INLINE_CODE) {
    if (!program.test(name)) continue;
    if (texts.some((text) => flag.test(text))) return [null];
    // No script file named: the program reads its code from stdin.
    const reads = !texts.some((text) => !text.startsWith("-")) || texts.includes("-");
    return reads && read.stdin !== "none" && read.stdin !== "file" ? [null] : [];
  }
  return [];
}

/** `-exec`/`-execdir`/`-ok`/`-okdir` run a command (`{} +` adds many paths); `-delete` deletes. */
function findRuns(args: Word[], read: Reader): Found[] {
  const found: Found[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = args[i].text;
    if (text === "-delete") found.push(DELETES);
    if (!/^-(exec|execdir|ok|okdir)$/.test(text)) continue;
    const end = args.findIndex((word, j) => j > i && (word.text === ";" || word.text === "+"));
    const stop = end < 0 ? args.length : end;
    const inner = read.words(args.slice(i + 1, stop));
    const open = end >= 0 && args[end].text === "+";
    found.push(...inner.map((one) => one === null || !open ? one : { ...one, open: true }));
    i = stop;
  }
  return found;
}

/** git: `-c key=value` that runs a program, a command that is not git's own, and the ones that run scripts. */
function gitRuns(args: Word[], read: Reader): Found[] {
  const options = readOptions(args, {
    short: "Cc",
    long: ["git-dir", "work-tree", "namespace", "config-env"],
  });
  const found: Found[] = [];
  for (const setting of options.values.c ?? []) {
    const [key, ...rest] = setting.split("=");
    const value = rest.join("=");
    if (/^alias\./i.test(key) && value.startsWith("!")) found.push(...read.script(value.slice(1)));
    else if (GIT_PROGRAM_KEY.test(key)) found.push(...read.script(value));
    else if (GIT_INDIRECT_KEY.test(key)) found.push(null);
  }
  if (options.values["config-env"] || options.values["exec-path"]) found.push(null);
  const [sub, ...more] = options.rest;
  if (sub === undefined) return found;
  if (!GIT_COMMANDS.has(sub.text)) return [...found, null];
  const texts = more.map((word) => word.text);
  if (sub.text === "rebase") {
    const exec = readOptions(more, { short: "xsSX", long: ["exec", "strategy", "onto"] });
    for (const script of [...(exec.values.x ?? []), ...(exec.values.exec ?? [])]) {
      found.push(...read.script(script));
    }
  }
  if (sub.text === "bisect" && texts[0] === "run") found.push(...read.words(more.slice(1)));
  if (sub.text === "submodule" && texts.includes("foreach")) found.push(null);
  if (/^(difftool|mergetool)$/.test(sub.text)) {
    const tool = readOptions(more, { short: "xt", long: ["extcmd", "tool"] });
    for (const script of [...(tool.values.x ?? []), ...(tool.values.extcmd ?? [])]) {
      found.push(...read.script(script));
    }
  }
  return found;
}

/** awk runs commands only through `system()`, `print | "cmd"` and `"cmd" | getline`; gawk can load code. */
function awkRuns(args: Word[]): Found[] {
  const { values, rest } = readOptions(args, {
    short: "Fvfeil",
    long: ["source", "file", "load", "include"],
  });
  if (values.l || values.load) return [null];
  const fromFile = values.f || values.file;
  const code = [...(values.e ?? []), ...(values.source ?? []), ...(fromFile ? [] : [rest[0]?.text ?? ""])];
  return code.some((text) => /system|\||@load/.test(text)) ? [null] : [];
}

/** GNU sed runs commands with its `e` command and the `e` flag of `s///`. */
function sedRuns(texts: string[]): Found[] {
  if (texts.includes("--sandbox")) return [];
  const scripts = texts.filter((text, i) =>
    !text.startsWith("-") || /^-[a-zA-Z]*e$/.test(texts[i - 1] ?? "")
  );
  const eCommand = /(^|[;\n{}]|^\s*[0-9$]+|\/)\s*!?\s*e(\s|;|$)/;
  const eFlag = /s(.).*\1.*\1[gpIiMm0-9w]*e/;
  return scripts.some((text) => eCommand.test(text) || eFlag.test(text)) ? [null] : [];
}
