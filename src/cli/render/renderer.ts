/** Turns AgentEvents into what a person reads in the terminal: streamed text, tool lines, usage, a spinner. */
import { styleText } from "node:util";
import type { AgentEvent } from "../../agent/events.ts";
import type { Usage } from "../../llm/types.ts";
import type { ToolDetails } from "../../tools/tool.ts";
import { formatDiffSummary } from "./diff_view.ts";
import { terminalSafe } from "./terminal_safe.ts";
import type { MarkdownOptions, MarkdownStream } from "./markdown.ts";

type Color = "gray" | "red" | "green" | "yellow" | "cyan" | "bold" | "dim";

/** Where rendered text goes; `isTerminal` decides colours and the spinner. */
export interface Sink {
  write(text: string): void;
  isTerminal: boolean;
}

/** A sink over a Deno stream (stdout or stderr). */
export function streamSink(stream: typeof Deno.stdout | typeof Deno.stderr): Sink {
  const encoder = new TextEncoder();
  return {
    write: (text) => {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
    },
    isTerminal: stream.isTerminal(),
  };
}

/** What the renderer shows: the REPL shows everything, headless progress shows tool lines only. */
export interface RenderOptions {
  showText: boolean;
  showReasoning: boolean;
  /** A line per model call with its tokens (default true). */
  showUsage?: boolean;
  useColor: boolean;
  /**
   * Renders the answer's markdown block by block (the REPL on a terminal); without it text streams raw.
   * A factory, so headless runs never load the markdown modules.
   */
  markdown?: (options: MarkdownOptions) => MarkdownStream;
  /** The terminal's width in cells, asked for each answer (default 80). */
  width?: () => number;
}

const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Renders one task's events; call `dispose()` when done so the spinner timer never leaks. */
export class Renderer {
  #sink: Sink;
  #options: RenderOptions;
  #atLineStart = true;
  #mode: "none" | "reasoning" | "text" = "none";
  #spinner?: { timer: ReturnType<typeof setInterval>; started: number; label: string };
  #markdown?: MarkdownStream;
  #lastResult?: { name: string; content: string; spilledTo?: string };
  /** Characters streamed since the model call began (the spinner's token estimate). */
  #streamed = 0;

  constructor(sink: Sink, options: RenderOptions) {
    this.#sink = sink;
    this.#options = options;
  }

  /** Handles one event. */
  handle(event: AgentEvent): void {
    switch (event.type) {
      case "model_start":
        this.#streamed = 0;
        this.#startSpinner("thinking");
        break;
      case "reasoning_delta":
        if (this.#options.showReasoning) this.#stream("reasoning", event.text);
        break;
      case "text_delta":
        if (this.#options.showText) this.#stream("text", event.text);
        break;
      case "tool_call":
        this.#line(
          `${this.#paint("cyan", "⏺")} ${this.#paint("bold", event.name)} ` +
            terminalSafe(clip(event.summary ?? summarizeArgs(event.arguments), 80)),
        );
        break;
      case "tool_start":
        if (event.effect === "exec" || event.effect === "network") this.#startSpinner("running");
        break;
      case "tool_result":
        this.#lastResult = { name: event.name, content: event.content, spilledTo: event.details?.spilledTo };
        this.#line(this.#resultLine(event));
        break;
      case "usage":
        if (this.#options.showUsage !== false) {
          this.#line(this.#paint("dim", formatUsage(event.usage)));
        }
        break;
      case "retry":
        this.#line(
          this.#paint(
            "yellow",
            `retrying in ${(event.delayMs / 1000).toFixed(1)} s (${event.reason}), ` +
              `attempt ${event.attempt}/${event.maxAttempts}`,
          ),
        );
        break;
      case "notice":
        this.#line(this.#paint(event.level === "warn" ? "yellow" : "dim", event.message));
        break;
      case "final":
        this.#endMarkdown();
        this.#stopSpinner();
        if (!this.#atLineStart) this.#write("\n");
        this.#mode = "none";
        break;
    }
  }

  /** Stops the spinner and ends the current line, e.g. before an approval prompt takes the terminal. */
  pause(): void {
    this.#endMarkdown();
    this.#stopSpinner();
    if (!this.#atLineStart) this.#write("\n");
    this.#mode = "none";
  }

  /** The last tool result shown (its tool, the text the model read, where the full output was saved). */
  get lastResult(): { name: string; content: string; spilledTo?: string } | undefined {
    return this.#lastResult;
  }

  /** Shows or hides the model's reasoning from now on (/thinking). */
  setShowReasoning(show: boolean): void {
    this.#options.showReasoning = show;
  }

  /** Whether reasoning is shown. */
  get showsReasoning(): boolean {
    return this.#options.showReasoning;
  }

  /** Prints a line of its own (banner, errors, notes); what it holds is made terminal-safe. */
  print(text: string, color?: Color): void {
    const safe = terminalSafe(text);
    this.#line(color ? this.#paint(color, safe) : safe);
  }

  /** Prints text rendered by tern's own views (a diff, the approval view), which made their parts safe. */
  printRendered(text: string): void {
    this.#line(text);
  }

  /** Releases the spinner timer. */
  dispose(): void {
    this.#stopSpinner();
  }

  #resultLine(event: Extract<AgentEvent, { type: "tool_result" }>): string {
    const status = event.isError ? this.#paint("red", "error") : this.#paint("green", "ok");
    const details = event.details;
    const diff = details?.diff;
    const ran = details?.exitCode !== undefined || details?.timedOut;
    // A change says what it did in its counts, a command its exit, a page its range; else the first line.
    let first: string;
    if (diff && !event.isError) {
      first = `${diff.path}${diff.created ? " (new)" : ""}: ${formatDiffSummary(diff)}`;
    } else if (ran) first = "";
    else if (details?.shown && !event.isError) first = "";
    else first = event.content.split("\n").find((line) => line.trim() !== "") ?? "";
    const facts = resultFacts(details, ran ? outputLines(event.content) : undefined);
    const head = first === "" ? "" : ` ${this.#paint("dim", terminalSafe(clip(first, 100)))}`;
    const tail = facts === "" ? "" : first === "" ? ` ${facts}` : ` ${this.#paint("dim", `· ${facts}`)}`;
    let line = `  ${this.#paint("dim", "⎿")} ${status}${head}${tail}`;
    // A refusal says what to do about it (which flag, which rule): shown whole, never cut.
    if (event.errorKind === "denied" && event.content.length > 100) {
      line = `  ${this.#paint("dim", "⎿")} ${status} ${
        this.#paint("yellow", terminalSafe(event.content.replace(/\s+/g, " ")))
      }`;
    }
    // A failed command shows its last lines: usually the error that matters.
    if (ran && event.isError) {
      const last = event.content.split("\n").filter((l) =>
        l.trim() !== "" && !/^\[(exit code|timed out)/.test(l)
      );
      for (const text of last.slice(-3)) {
        line += `\n      ${this.#paint("dim", terminalSafe(clip(text, 110)))}`;
      }
    }
    return line;
  }

  #stream(mode: "reasoning" | "text", text: string): void {
    if (text === "") return;
    this.#streamed += text.length;
    if (mode === "text" && this.#options.markdown) return this.#streamMarkdown(text);
    this.#endMarkdown();
    this.#stopSpinner();
    if (this.#mode !== mode && !this.#atLineStart) this.#write("\n");
    this.#mode = mode;
    const safe = terminalSafe(text); // the model's words: no escape of theirs reaches the terminal
    this.#write(mode === "reasoning" ? this.#paint("gray", safe) : safe);
  }

  /** Markdown prints whole blocks; until one is complete the spinner keeps showing time and tokens. */
  #streamMarkdown(text: string): void {
    if (this.#mode !== "text") {
      this.#stopSpinner();
      if (!this.#atLineStart) this.#write("\n");
      if (this.#mode === "reasoning") this.#write("\n"); // a blank line between thinking and answer
      this.#mode = "text";
      const width = this.#options.width?.() ?? 80;
      this.#markdown = this.#options.markdown!({
        width: Math.max(20, width - 1),
        color: this.#options.useColor,
      });
    }
    const ready = this.#markdown!.push(text);
    if (ready !== "") {
      this.#stopSpinner();
      this.#write(ready);
    }
    if (!this.#spinner) this.#startSpinner("writing", this.#spinnerStarted);
  }

  #endMarkdown(): void {
    if (!this.#markdown) return;
    const rest = this.#markdown.end();
    this.#markdown = undefined;
    this.#stopSpinner();
    if (rest !== "") this.#write(rest);
  }

  #line(text: string): void {
    this.#endMarkdown();
    this.#stopSpinner();
    if (!this.#atLineStart) this.#write("\n");
    this.#mode = "none";
    this.#write(text + "\n");
  }

  #write(text: string): void {
    this.#sink.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  #paint(color: Color, text: string): string {
    return this.#options.useColor ? styleText(color, text) : text;
  }

  #spinnerStarted = Date.now();

  #startSpinner(label: string, started = Date.now()): void {
    this.#stopSpinner();
    if (!this.#sink.isTerminal) return;
    this.#spinnerStarted = started;
    let frame = 0;
    const draw = () => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      // About four characters a token: a live estimate until the usage arrives.
      const tokens = this.#streamed > 0 ? ` · ~${thousands(Math.ceil(this.#streamed / 4))} tokens` : "";
      this.#sink.write(
        `\r${this.#paint("cyan", SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length])} ` +
          this.#paint("dim", `${label} ${seconds}s${tokens} · Esc cancels`),
      );
    };
    draw();
    this.#spinner = { timer: setInterval(draw, 100), started, label };
  }

  #stopSpinner(): void {
    if (!this.#spinner) return;
    clearInterval(this.#spinner.timer);
    this.#spinner = undefined;
    this.#sink.write("\r\x1b[2K");
  }
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
  if (details.hiddenCharacters) {
    const n = details.hiddenCharacters;
    facts.push(`${n} hidden character${n === 1 ? "" : "s"} removed`);
  }
  if (details.spilledTo) facts.push(`full output: ${details.spilledTo}`);
  return facts.join(" · ");
}

/** Lines a command printed, without tern's own trailers ("[exit code 2]"). */
function outputLines(content: string): number {
  return content.split("\n").filter((line) => line.trim() !== "" && !/^\[(exit code|timed out)/.test(line))
    .length;
}

/**
 * An integer with thousands separators, "1,234,567". Not toLocaleString: that maps the runtime's locale data
 * (about 6 MB of memory and a few ms) into every run that prints one usage line.
 */
export function thousands(value: number): string {
  const [whole, fraction] = String(value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** "tokens: 1,234 in (1,000 cached) · 56 out (20 reasoning)". */
export function formatUsage(usage: Usage): string {
  const n = thousands;
  const cached = usage.cachedTokens ? ` (${n(usage.cachedTokens)} cached)` : "";
  const reasoning = usage.reasoningTokens ? ` (${n(usage.reasoningTokens)} reasoning)` : "";
  return `tokens: ${n(usage.promptTokens)} in${cached} · ${n(usage.completionTokens)} out${reasoning}`;
}

const PARTIAL_REASONS: Record<string, string> = {
  length: "the answer was cut off at the model's output limit; ask it to continue",
  runaway: "the model kept repeating itself, so tern stopped it and asked for a report",
  max_turns: "the --max-turns limit was reached",
  token_budget: "the --token-budget limit was reached",
  time_budget: "the --time-limit was reached",
};

/** The label for an answer that is not the whole story: "⚠ partial: <why>". */
export function partialNote(reason: string): string {
  return `⚠ partial: ${PARTIAL_REASONS[reason] ?? `stopped early (${reason})`}`;
}
