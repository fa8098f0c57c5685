/**
 * A session transcript as Markdown: one section per prompt and answer, calls and results in fences. Control
 * characters become visible placeholders (terminal_safe.ts): a Markdown file is read with `cat` too.
 */
import { terminalSafe } from "../render/terminal_safe.ts";
import type { Block, CallBlock, Transcript } from "./transcript.ts";

/** Characters of one tool result kept in an export; the rest is said, not shown. */
export const MAX_RESULT_CHARS = 50_000;

/** `text` cut at MAX_RESULT_CHARS, saying how much was left out. */
export function cutResult(text: string): string {
  if (text.length <= MAX_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_RESULT_CHARS)}\n[… ${
    text.length - MAX_RESULT_CHARS
  } more characters not exported]`;
}

/** The transcript as one Markdown document. */
export function transcriptMarkdown(transcript: Transcript): string {
  const title = transcript.name
    ? `${oneLine(transcript.name)} (${transcript.id})`
    : `Session ${transcript.id}`;
  const facts = [
    `started ${transcript.startedAt}`,
    `${transcript.model} via ${transcript.provider}`,
    ...(transcript.forkedFrom ? [`forked from ${transcript.forkedFrom}`] : []),
  ];
  const parts = [`# ${title}`, `*${facts.join(" · ")}*`, ...transcript.blocks.map(blockMarkdown)];
  return terminalSafe(parts.join("\n\n") + "\n");
}

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case "user": {
      const images = block.images ? `\n\n*(${block.images} image(s) attached)*` : "";
      return `## You\n\n${quote(block.text)}${images}`;
    }
    case "assistant": {
      const parts = ["## tern"];
      if (block.reasoning) {
        parts.push(`<details><summary>Reasoning</summary>\n\n${fenced(block.reasoning)}\n\n</details>`);
      }
      if (block.text.trim()) parts.push(block.text.trim());
      parts.push(...block.calls.map(callMarkdown));
      return parts.join("\n\n");
    }
    case "summary":
      return `## Summary of the earlier turns\n\n${quote(block.text)}`;
    case "note":
      return `*${oneLine(block.text)}*`;
  }
}

function callMarkdown(call: CallBlock): string {
  const parts = [`### Tool call: \`${call.name}\``, fenced(call.args, "json")];
  if (call.change) {
    const diff = call.change.lines.map((line) => `${line.sign}${line.text}`).join("\n");
    const made = call.result && !call.result.isError;
    const words = made ? "Change to" : "Change asked for (not made) to";
    parts.push(`${words} \`${oneLine(call.change.path)}\`:`, fenced(diff, "diff"));
  }
  if (call.result) {
    parts.push(call.result.isError ? "Result (error):" : "Result:", fenced(cutResult(call.result.content)));
  } else parts.push("*(no result)*");
  return parts.join("\n\n");
}

/** `text` in a code fence longer than any run of backticks inside it, so nothing can close it early. */
function fenced(text: string, language = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** The user's words as a block quote, so their Markdown cannot become the export's headings. */
function quote(text: string): string {
  return text.split("\n").map((line) => (line === "" ? ">" : `> ${line}`)).join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
