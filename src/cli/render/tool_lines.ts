/**
 * The lines a tool call shows on screen: its call line, the live tail of its output while it runs, and its
 * result line with the facts of its details. Every text from outside passes terminalSafe.
 */
import type { AgentEvent } from "../../agent/events.ts";
import type { ToolDetails } from "../../tools/tool.ts";
import { formatDiffSummary } from "./diff_view.ts";
import { terminalSafe } from "./terminal_safe.ts";
import { visibleWidth } from "./_text_layout.ts";

/** Colours a piece of text (or leaves it plain when colour is off). */
export type Paint = (color: "red" | "green" | "yellow" | "cyan" | "bold" | "dim", text: string) => string;

/** "⏺ name target": the call, with its tool's summary of the target or a short view of its arguments. */
export function callLine(event: Extract<AgentEvent, { type: "tool_call" }>, paint: Paint): string {
  // An MCP tool's summary starts with "server › tool": that is its name on screen, said once.
  const label = event.name.startsWith("mcp__") ? /^(\S+ › \S+) ?(.*)$/.exec(event.summary ?? "") : null;
  const name = label ? terminalSafe(label[1]) : event.name;
  const rest = label ? label[2] : event.summary ?? summarizeArgs(event.arguments);
  return `${paint("cyan", "⏺")} ${paint("bold", name)} ${terminalSafe(clip(rest, 80))}`.trimEnd();
}

/** A running call's last output lines, dim and indented, each cut to fit one row of `width` cells. */
export function tailLines(tail: string[], width: number, paint: Paint): string[] {
  const room = Math.max(10, width - 5);
  return tail.map((line) => `    ${paint("dim", fit(terminalSafe(line.replaceAll("\t", "    ")), room))}`);
}

/** `text` cut to at most `cells` terminal cells (wide characters count two), marked "…" when cut. */
export function fit(text: string, cells: number): string {
  if (visibleWidth(text) <= cells) return text;
  let out = "";
  let used = 0;
  for (const char of text) {
    const width = visibleWidth(char);
    if (used + width > cells - 1) break;
    out += char;
    used += width;
  }
  return `${out}…`;
}

/** The line under a finished call: ok or error, what it did (counts, exit, range) or its first line. */
export function resultLine(event: Extract<AgentEvent, { type: "tool_result" }>, paint: Paint): string {
  const status = event.isError ? paint("red", "error") : paint("green", "ok");
  const details = event.details;
  const diff = details?.diff;
  const ran = details?.exitCode !== undefined || details?.timedOut;
  // A change says what it did in its counts, a command its exit, a page its range; else the first line.
  let first: string;
  if (diff && !event.isError) {
    first = `${diff.path}${diff.created ? " (new)" : ""}: ${formatDiffSummary(diff)}`;
  } else if (ran) first = "";
  else if (details?.shown && !event.isError) first = "";
  else if (details?.web) first = ""; // a page says its status, final address and size in its facts
  else if (details?.mcp && !event.isError) first = ""; // an MCP result is summed up in its facts
  else first = event.content.split("\n").find((line) => line.trim() !== "") ?? "";
  let facts = resultFacts(details, ran ? outputLines(event.content) : undefined);
  // A sub-agent's answer is folded to its first line; the rest is counted (/expand shows the last one).
  const more = details?.subAgent ? outputLines(event.content) - 2 : 0;
  if (more > 0) facts += ` · +${more} line${more === 1 ? "" : "s"} (/expand)`;
  const head = first === "" ? "" : ` ${paint("dim", terminalSafe(clip(first, 100)))}`;
  const tail = facts === "" ? "" : first === "" ? ` ${facts}` : ` ${paint("dim", `· ${facts}`)}`;
  let line = `  ${paint("dim", "⎿")} ${status}${head}${tail}`;
  // A refusal says what to do about it (which flag, which rule): shown whole, never cut.
  if (event.errorKind === "denied" && event.content.length > 100) {
    line = `  ${paint("dim", "⎿")} ${status} ${
      paint("yellow", terminalSafe(event.content.replace(/\s+/g, " ")))
    }`;
  }
  // A failed command shows its last lines: usually the error that matters.
  if (ran && event.isError) {
    const last = event.content.split("\n").filter((l) =>
      l.trim() !== "" && !/^\[(exit code|timed out)/.test(l)
    );
    for (const text of last.slice(-3)) {
      line += `\n      ${paint("dim", terminalSafe(clip(text, 110)))}`;
    }
  }
  return line;
}

/**
 * A short, one-line view of a call's raw arguments, for calls whose tool gave no summary (bad arguments,
 * unknown tools): `key=value` pairs, each value cut, the whole cut to fit.
 */
export function summarizeArgs(raw: string): string {
  let shown: string;
  try {
    const args = JSON.parse(raw || "{}");
    shown = typeof args === "object" && args !== null
      ? Object.entries(args).map(([key, value]) => `${key}=${clip(JSON.stringify(value) ?? "", 24)}`).join(
        " ",
      )
      : String(args);
  } catch {
    shown = raw;
  }
  return clip(shown.replace(/\s+/g, " ").trim(), 80);
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}

/** "lines" → "line", "entries" → "entry", "matches" → "match". */
function singular(unit: string): string {
  if (unit.endsWith("ies")) return `${unit.slice(0, -3)}y`;
  if (/(ch|sh|x|s)es$/.test(unit)) return unit.slice(0, -2);
  return unit.replace(/s$/, "");
}

/**
 * What a result's details add to its line: the page shown ("lines 1–200 of 812", or "812 lines" when whole;
 * "100+ matches" for a search stopped at its cap), exit code or timeout, time, a command's output size,
 * where the full output went.
 */
export function resultFacts(details: ToolDetails | undefined, lines?: number): string {
  if (!details) return "";
  const facts: string[] = [];
  if (details.web) {
    const { status, url, bytes } = details.web;
    facts.push(`HTTP ${status}`, terminalSafe(clipUrl(url)), sizeWords(bytes));
  }
  if (details.mcp) {
    const { lines, bytes, other } = details.mcp;
    facts.push(lines === 0 ? "no text" : `${lines} line${lines === 1 ? "" : "s"}, ${sizeWords(bytes)}`);
    if (other?.length) facts.push(terminalSafe(`${other.join(", ")} (not shown)`));
  }
  if (details.shown) {
    const { from, to, of, unit, more } = details.shown;
    facts.push(
      to < of || from > 1
        ? `${unit} ${from}–${to} of ${of}`
        : more
        ? `${of}+ ${unit}`
        : `${of} ${of === 1 ? singular(unit) : unit}`,
    );
  }
  const seconds = details.durationMs !== undefined
    ? `${(details.durationMs / 1000).toFixed(1)} s`
    : undefined;
  if (details.timedOut) facts.push(seconds ? `timed out after ${seconds}` : "timed out");
  else if (details.exitCode !== undefined) facts.push(`exit ${details.exitCode}`);
  if (seconds && !details.timedOut) facts.push(seconds);
  if (lines !== undefined) facts.push(`${lines} line${lines === 1 ? "" : "s"} of output`);
  if (details.killedBackground) facts.push(`${details.killedBackground} background process(es) killed`);
  if (details.outputCapped) {
    facts.push(`killed at the ${Math.round(details.outputCapped.capBytes / 1048576)} MiB output cap`);
  }
  if (details.survivors?.length) facts.push(`${details.survivors.length} process(es) left running`);
  if (details.restored?.length) {
    facts.push(terminalSafe(`⚠ protected paths undone: ${details.restored.join(", ")}`));
  }
  if (details.hiddenCharacters) {
    const n = details.hiddenCharacters;
    facts.push(`${n} hidden character${n === 1 ? "" : "s"} removed`);
  }
  if (details.subAgent) {
    const { agent, turns, toolCalls, tokens } = details.subAgent;
    const calls = `${toolCalls} tool call${toolCalls === 1 ? "" : "s"}`;
    facts.push(
      `${agent}: ${turns} turn${turns === 1 ? "" : "s"}, ${calls}, ${tokens.toLocaleString("en-US")} tokens`,
    );
  }
  if (details.diagnostics) facts.push(terminalSafe(diagnosticsFact(details.diagnostics)));
  if (details.spilledTo) facts.push(`full output: ${details.spilledTo}`);
  return facts.join(" · ");
}

/** The language server's word on a change, e.g. "typescript: 2 new errors" (/diagnostics lists them). */
function diagnosticsFact(outcome: NonNullable<ToolDetails["diagnostics"]>): string {
  if (outcome.state === "not_ready") return `${outcome.server}: diagnostics not ready`;
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const fixed = outcome.fixed > 0 ? `, ${count(outcome.fixed, "error")} fixed` : "";
  const news = outcome.introduced.length;
  return `${outcome.server}: ${news === 0 ? "no new problems" : count(news, "new error")}${fixed}`;
}

/** Lines a command printed, without tern's own trailers ("[exit code 2]"). */
function outputLines(content: string): number {
  return content.split("\n").filter((line) => line.trim() !== "" && !/^\[(exit code|timed out)/.test(line))
    .length;
}

/** A URL cut in the middle to fit a tool line, keeping its host and its end. */
function clipUrl(url: string): string {
  return url.length <= 80 ? url : `${url.slice(0, 50)}…${url.slice(-29)}`;
}

/** Bytes as "812 B", "12.3 KB", "1.2 MB". */
function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
