/**
 * A session transcript as one HTML file that opens in any browser with no network: the style inline, no
 * script, no outside resource, and a Content-Security-Policy that forbids loading anything should some
 * text slip through. Every piece of session text is escaped: a hostile tool output stays text.
 */
import { cutResult } from "./export_md.ts";
import type { Block, CallBlock, Transcript } from "./transcript.ts";

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fafafa}
h1{font-size:1.4rem;margin-bottom:.2rem}.facts{color:#666;margin-top:0}
section{border-radius:8px;padding:.6rem 1rem;margin:1rem 0;background:#fff;border:1px solid #e3e3e3}
section.user{background:#eef5ff;border-color:#c9dcf7}section.summary{background:#fff8e6}
h2{font-size:.85rem;text-transform:uppercase;letter-spacing:.05em;color:#555;margin:.2rem 0}
pre{background:#f4f4f4;padding:.6rem;border-radius:6px;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
.call{border-left:3px solid #999;padding-left:.8rem;margin:.8rem 0}.call.error{border-color:#c33}
.name{font-family:ui-monospace,monospace;font-weight:600}.del{color:#b31d28;background:#ffeef0;display:block}
.add{color:#22863a;background:#e6ffed;display:block}.note{color:#666;font-style:italic}
details summary{cursor:pointer;color:#555}`;

/** The transcript as one self-contained HTML document. */
export function transcriptHtml(transcript: Transcript): string {
  const title = transcript.name ? `${transcript.name} (${transcript.id})` : `Session ${transcript.id}`;
  const facts = [
    `started ${transcript.startedAt}`,
    `${transcript.model} via ${transcript.provider}`,
    ...(transcript.forkedFrom ? [`forked from ${transcript.forkedFrom}`] : []),
  ].join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head>
<body><h1>${escape(title)}</h1><p class="facts">${escape(facts)}</p>
${transcript.blocks.map(blockHtml).join("\n")}
</body></html>
`;
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case "user": {
      const images = block.images ? `<p class="note">(${block.images} image(s) attached)</p>` : "";
      return `<section class="user"><h2>You</h2>${paragraphs(block.text)}${images}</section>`;
    }
    case "assistant": {
      const reasoning = block.reasoning
        ? `<details><summary>Reasoning</summary><pre>${escape(block.reasoning)}</pre></details>`
        : "";
      const text = block.text.trim() ? paragraphs(block.text) : "";
      return `<section class="assistant"><h2>tern</h2>${reasoning}${text}${
        block.calls.map(callHtml).join("")
      }</section>`;
    }
    case "summary":
      return `<section class="summary"><h2>Summary of the earlier turns</h2>${
        paragraphs(block.text)
      }</section>`;
    case "note":
      return `<p class="note">${escape(block.text)}</p>`;
  }
}

function callHtml(call: CallBlock): string {
  const error = call.result?.isError ? " error" : "";
  const change = call.change
    ? `<p>${changeWords(call)} <span class="name">${escape(call.change.path)}</span>:</p><pre>${
      call.change.lines.map((line) =>
        `<span class="${line.sign === "-" ? "del" : "add"}">${line.sign}${escape(line.text)}</span>`
      ).join("")
    }</pre>`
    : "";
  const result = call.result
    ? `<details${call.result.isError ? " open" : ""}><summary>${
      call.result.isError ? "Result (error)" : "Result"
    }</summary><pre>${escape(cutResult(call.result.content))}</pre></details>`
    : `<p class="note">(no result)</p>`;
  return `<div class="call${error}"><p>Tool call: <span class="name">${escape(call.name)}</span></p>` +
    `<details><summary>Arguments</summary><pre>${escape(call.args)}</pre></details>${change}${result}</div>`;
}

/** A failed call's change was asked for, not made. */
function changeWords(call: CallBlock): string {
  return call.result?.isError || !call.result ? "Change asked for (not made) to" : "Change to";
}

/** Text as paragraphs, each line break kept. */
function paragraphs(text: string): string {
  return text.trim().split(/\n{2,}/).map((part) => `<p>${escape(part).replaceAll("\n", "<br>")}</p>`).join(
    "",
  );
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** HTML-escaped text (also the control characters a browser would choke on). */
function escape(text: string): string {
  // deno-lint-ignore no-control-regex -- control characters are dropped from the document
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]).replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "");
}
