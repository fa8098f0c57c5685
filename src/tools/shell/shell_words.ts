/**
 * A small, forgiving reader of bash command lines for the deny-list: words with quotes removed, operators,
 * and the scripts hidden in `$(...)`, backticks, `<(...)` and unquoted here-documents. It is not a bash
 * parser (no expansion, no syntax errors); it only has to find command words well enough for a speed bump.
 */

import { decodeAnsiC } from "./_ansi_c.ts";

/** A word with its quotes removed; `subs` are the scripts of the substitutions inside it. */
export interface Word {
  text: string;
  /** Some part of the word was quoted (a quoted `*` is not a glob). */
  quoted: boolean;
  subs: string[];
  /** For a here-document's delimiter: the document's body. */
  body?: string;
}

/** An operator (`;`, `&&`, `|`, `>`, ...) or a word. */
export type Token = { op: string } | { word: Word };

/** One simple command: its words, and the targets of its redirections. */
export interface Command {
  words: Word[];
  redirects: Word[];
  /** What a here-string (`<<< text`) or a here-document feeds the command on stdin. */
  input?: string;
  /** Its stdin is redirected from a file (`< file`). */
  fromFile?: boolean;
  /** Its stdin is another descriptor (`<&3`, `<> x`): what it holds is unknown. */
  fromFd?: boolean;
}

/** Longest first, so `&&` is not read as two `&`. */
const OPERATORS = [
  "&>>",
  "<<<",
  "<<-",
  "&&",
  "||",
  ";;",
  "|&",
  "<<",
  ">>",
  "&>",
  ">&",
  "<&",
  "<>",
  ">|",
  ";",
  "&",
  "|",
  "(",
  ")",
  "<",
  ">",
  "\n",
];
const REDIRECTS = new Set(["&>>", "<<<", "<<-", "<<", ">>", "&>", ">&", "<&", "<>", ">|", "<", ">"]);
/** Operators that end a command but keep its pipeline going (`(curl x) | sh`). */
const WITHIN_PIPELINE = new Set(["|", "|&", "(", ")"]);
const WORD_END = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

/** Index of the `)` closing a `$(` or `<(` whose body starts at `start`; quotes inside are skipped. */
function closeParen(s: string, start: number): number {
  let depth = 1;
  for (let j = start; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "'") j = end(s.indexOf("'", j + 1), s);
    else if (c === '"') j = closeDouble(s, j + 1);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j;
  }
  return s.length;
}

/** Index of the `"` closing a double-quoted string whose body starts at `start`. */
function closeDouble(s: string, start: number): number {
  for (let j = start; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === '"') return j;
  }
  return s.length;
}

function closeBacktick(s: string, start: number): number {
  for (let j = start; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "`") return j;
  }
  return s.length;
}

/** Index of the `'` closing an ANSI-C string (`$'...'`) whose body starts at `start`: `\'` does not close it. */
function closeAnsiC(s: string, start: number): number {
  for (let j = start; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === "'") return j;
  }
  return s.length;
}

function end(index: number, s: string): number {
  return index < 0 ? s.length : index;
}

/** Scripts of the `$(...)` and backtick substitutions in text where they are live (double quotes, heredocs). */
function substitutions(text: string): string[] {
  const subs: string[] = [];
  for (let j = 0; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text.startsWith("$(", j)) {
      const close = closeParen(text, j + 2);
      subs.push(text.slice(j + 2, close));
      j = close;
    } else if (text[j] === "`") {
      const close = closeBacktick(text, j + 1);
      subs.push(text.slice(j + 1, close));
      j = close;
    }
  }
  return subs;
}

/** Reads one word starting at `i`; returns it and the index after it. */
function readWord(s: string, i: number): { word: Word; next: number } {
  const word: Word = { text: "", quoted: false, subs: [] };
  while (i < s.length && !WORD_END.has(s[i])) {
    const c = s[i];
    let close: number;
    if (c === "\\") {
      if (s[i + 1] !== "\n") word.text += s[i + 1] ?? "";
      i += 2;
      continue;
    }
    if (c === "$" && s[i + 1] === "'") {
      // ANSI-C quoting: `$'\x72m'` is `rm`, as bash reads it.
      close = closeAnsiC(s, i + 2);
      word.text += decodeAnsiC(s.slice(i + 2, close));
      word.quoted = true;
    } else if (c === "'") {
      close = end(s.indexOf("'", i + 1), s);
      word.text += s.slice(i + 1, close);
      word.quoted = true;
    } else if (c === '"' || (c === "$" && s[i + 1] === '"')) {
      // `$"..."` (a translated string) reads like `"..."`.
      if (c === "$") i++;
      close = closeDouble(s, i + 1);
      const body = s.slice(i + 1, close);
      word.text += body.replace(/\\([$`"\\])/g, "$1");
      word.subs.push(...substitutions(body));
      word.quoted = true;
    } else if (c === "`" || s.startsWith("$(", i)) {
      close = c === "`" ? closeBacktick(s, i + 1) : closeParen(s, i + 2);
      word.subs.push(s.slice(c === "`" ? i + 1 : i + 2, close));
      word.text += s.slice(i, close + 1);
    } else {
      word.text += c;
      close = i;
    }
    i = close + 1;
  }
  return { word, next: i };
}

/** Pending here-document: its delimiter word, whether `<<-` strips tabs, and whether its body is live. */
interface Heredoc {
  word: Word;
  delimiter: string;
  stripTabs: boolean;
  live: boolean;
}

/** Skips the bodies of the here-documents opened on the line that just ended; live ones yield scripts. */
function readHeredocs(s: string, i: number, pending: Heredoc[], scripts: string[]): number {
  for (const doc of pending) {
    let body = "";
    while (i < s.length) {
      const stop = end(s.indexOf("\n", i), s);
      const line = s.slice(i, stop);
      i = stop + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
      body += `${line}\n`;
    }
    doc.word.body = body;
    if (doc.live) scripts.push(...substitutions(body));
  }
  pending.length = 0;
  return i;
}

/** Splits a command line into tokens; `heredocScripts` are the substitutions found in here-documents. */
export function lex(s: string): { tokens: Token[]; heredocScripts: string[] } {
  const tokens: Token[] = [];
  const heredocScripts: string[] = [];
  const pending: Heredoc[] = [];
  let heredocOp = "";
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === " " || c === "\t" || (c === "\\" && s[i + 1] === "\n")) {
      // A here-document's delimiter may follow its `<<` after a space: keep `heredocOp` across it.
      i += c === "\\" ? 2 : 1;
      continue;
    }
    if (c === "#") {
      i = end(s.indexOf("\n", i), s);
    } else if ((c === "<" || c === ">") && s[i + 1] === "(") {
      const close = closeParen(s, i + 2);
      tokens.push({ word: { text: s.slice(i, close + 1), quoted: false, subs: [s.slice(i + 2, close)] } });
      i = close + 1;
    } else {
      const op = OPERATORS.find((candidate) => s.startsWith(candidate, i));
      if (op) {
        tokens.push({ op });
        i += op.length;
        if (op === "\n") i = readHeredocs(s, i, pending, heredocScripts);
        heredocOp = op === "<<" || op === "<<-" ? op : "";
        continue;
      }
      const { word, next } = readWord(s, i);
      tokens.push({ word });
      i = next;
      if (heredocOp) {
        pending.push({ word, delimiter: word.text, stripTabs: heredocOp === "<<-", live: !word.quoted });
      }
    }
    heredocOp = "";
  }
  return { tokens, heredocScripts };
}

/** Groups tokens into pipelines of simple commands; redirection targets are set apart from the words. */
export function parse(tokens: Token[]): Command[][] {
  const pipelines: Command[][] = [[]];
  let command: Command = { words: [], redirects: [] };
  let redirectNext = "";
  const finish = () => {
    if (command.words.length > 0 || command.redirects.length > 0) pipelines.at(-1)!.push(command);
    command = { words: [], redirects: [] };
  };
  for (const token of tokens) {
    if ("word" in token) {
      (redirectNext ? command.redirects : command.words).push(token.word);
      if (redirectNext === "<<<") command.input = `${token.word.text}\n`;
      else if (redirectNext.startsWith("<<")) command.input = token.word.body ?? "";
      else if (redirectNext === "<") command.fromFile = true;
      else if (redirectNext === "<&" || redirectNext === "<>") command.fromFd = true;
      redirectNext = "";
    } else if (REDIRECTS.has(token.op)) {
      redirectNext = token.op;
    } else {
      finish();
      if (!WITHIN_PIPELINE.has(token.op)) pipelines.push([]);
    }
  }
  finish();
  return pipelines.filter((pipeline) => pipeline.length > 0);
}
