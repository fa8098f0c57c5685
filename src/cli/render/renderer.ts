/** Turns AgentEvents into what a person reads in the terminal: streamed text, tool lines, usage, a spinner. */
import { stdoutTakesColor, styleText } from "./style.ts";
import type { AgentEvent } from "../../agent/events.ts";
import type { MarkdownOptions, MarkdownStream } from "./markdown.ts";
import { callLine, fit, type Paint, resultLine, tailLines } from "./tool_lines.ts";
import { CallOrder } from "./call_order.ts";
import { formatUsage, retryWords } from "./task_words.ts";
import { wrapLines } from "./_text_layout.ts";
import { terminalSafe } from "./terminal_safe.ts";
import { ChildBoard } from "./child_lines.ts";
import { planLines } from "./plan_lines.ts";
import type { Sink } from "./sink.ts";
import { Spinner } from "./spinner.ts";

type Color = "gray" | "red" | "green" | "yellow" | "cyan" | "bold" | "dim";

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

/** One handler an event type: what the renderer does with an event of that type (types not named are not shown). */
type EventHandlers = { [T in AgentEvent["type"]]?: (event: Extract<AgentEvent, { type: T }>) => void };

/** Renders one task's events; call `dispose()` when done so the spinner timer never leaks. */
export class Renderer {
  #sink: Sink;
  #options: RenderOptions;
  #atLineStart = true;
  #mode: "none" | "reasoning" | "text" = "none";
  #markdown?: MarkdownStream;
  #lastResult?: { name: string; content: string; spilledTo?: string };
  /** Characters streamed since the model call began (the spinner's token estimate). */
  #streamed = 0;
  /** Rows of a running call's live tail on screen, under its call line (erased before anything else prints). */
  #tailRows = 0;
  readonly #painter: Paint = (color, text) => this.#paint(color, text);
  /** Running sub-agents, one live line each under the calls (drawn like a tail). */
  readonly #children = new ChildBoard();
  /** Keeps each result under its own call line when calls run side by side. */
  readonly #order = new CallOrder();
  readonly #spinner: Spinner;

  constructor(sink: Sink, options: RenderOptions) {
    this.#sink = sink;
    this.#options = options;
    this.#spinner = new Spinner(sink, (color, text) => this.#paint(color, text), () => this.#streamed);
  }

  /** Handles one event. */
  handle(event: AgentEvent): void {
    (this.#handlers[event.type] as ((event: AgentEvent) => void) | undefined)?.(event);
  }

  readonly #handlers: EventHandlers = {
    model_start: () => {
      this.#streamed = 0;
      this.#spinner.start("thinking");
    },
    reasoning_delta: (event) => {
      if (this.#options.showReasoning) this.#stream("reasoning", event.text);
    },
    text_delta: (event) => {
      if (this.#options.showText) this.#stream("text", event.text);
    },
    tool_call: (event) => {
      const plain = callLine(event, (_color, text) => text);
      for (const line of this.#order.call(event.id, callLine(event, this.#painter), plain)) this.#line(line);
      if (this.#order.pending.length > 0) this.#drawLive();
    },
    tool_start: (event) => {
      if (event.effect === "exec" || event.effect === "network") this.#spinner.start("running");
    },
    tool_update: (event) =>
      this.#drawLive(tailLines(event.tail, this.#options.width?.() ?? 80, this.#painter)),
    child_start: (event) => {
      if (this.#children.handle(event)) this.#drawLive();
    },
    child_event: (event) => {
      if (this.#children.handle(event)) this.#drawLive();
    },
    plan: (event) => this.#line(planLines(event, this.#painter).join("\n")),
    tool_result: (event) => {
      this.#lastResult = { name: event.name, content: event.content, spilledTo: event.details?.spilledTo };
      this.#children.end(event.id);
      const shown = !event.details?.quiet || event.isError ? resultLine(event, this.#painter) : null;
      for (const line of this.#order.result(event.id, shown)) this.#line(line);
    },
    usage: (event) => {
      if (this.#options.showUsage !== false) this.#line(this.#paint("dim", formatUsage(event.usage)));
    },
    retry: (event) => this.#line(this.#paint("yellow", retryWords(event))),
    notice: (event) => {
      this.#line(this.#paint(event.level === "warn" ? "yellow" : "dim", terminalSafe(event.message)));
    },
    final: () => {
      for (const line of this.#order.flush()) this.#line(line);
      this.#children.clear();
      this.#endMarkdown();
      this.#spinner.stop();
      this.#eraseTail();
      if (!this.#atLineStart) this.#write("\n");
      this.#mode = "none";
    },
  };

  /** Stops the spinner and ends the current line, e.g. before an approval prompt takes the terminal. */
  pause(): void {
    this.#endMarkdown();
    this.#spinner.stop();
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
    this.#spinner.stop();
  }

  #stream(mode: "reasoning" | "text", text: string): void {
    if (text === "") return;
    this.#streamed += text.length;
    if (mode === "text" && this.#options.markdown) return this.#streamMarkdown(text);
    this.#endMarkdown();
    this.#spinner.stop();
    if (this.#mode !== mode && !this.#atLineStart) this.#write("\n");
    // Grey tells thinking from the answer; without colour a label has to.
    if (mode === "reasoning" && this.#mode !== mode && !this.#options.useColor) this.#write("thinking: ");
    this.#mode = mode;
    const safe = terminalSafe(text); // the model's words: no escape of theirs reaches the terminal
    this.#write(mode === "reasoning" ? this.#paint("gray", safe) : safe);
  }

  /** Markdown prints whole blocks; until one is complete the spinner keeps showing time and tokens. */
  #streamMarkdown(text: string): void {
    if (this.#mode !== "text") {
      this.#spinner.stop();
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
      this.#spinner.stop();
      this.#write(ready);
    }
    if (!this.#spinner.running) this.#spinner.start("writing", this.#spinner.started);
  }

  #endMarkdown(): void {
    if (!this.#markdown) return;
    const rest = this.#markdown.end();
    this.#markdown = undefined;
    this.#spinner.stop();
    if (rest !== "") this.#write(rest);
  }

  #line(text: string): void {
    this.#endMarkdown();
    this.#spinner.stop();
    if (!this.#atLineStart) this.#write("\n");
    this.#mode = "none";
    // On a terminal, a line wider than it is wrapped at words: the terminal would cut it mid-word.
    const width = this.#options.width?.() ?? 80;
    this.#write((this.#sink.isTerminal ? wrapLines(text, width) : text) + "\n");
    if (this.#children.active || this.#order.pending.length > 0) this.#drawLive();
  }

  /**
   * The live area: a running call's last lines (`tail`), the calls running beside the one shown last, and
   * the running children, with a spinner under them while any child runs.
   */
  #drawLive(tail: string[] = []): void {
    const width = this.#options.width?.() ?? 80;
    const held = this.#order.pending.map((line) => this.#paint("dim", fit(line, width - 1)));
    this.#drawTail([...tail, ...held, ...this.#children.lines(width, this.#painter)]);
    if (this.#children.active && !this.#spinner.running) this.#spinner.start("sub-agents working");
  }

  #write(text: string): void {
    this.#eraseTail();
    this.#sink.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  /** Live lines (a running call's last lines, the running children) redrawn in place; terminals only. */
  #drawTail(lines: string[]): void {
    if (!this.#sink.isTerminal) return;
    const spinner = this.#spinner.running;
    this.#spinner.stop();
    this.#eraseTail();
    if (!this.#atLineStart) this.#write("\n");
    this.#sink.write(lines.map((line) => `${line}\n`).join(""));
    this.#tailRows = lines.length;
    if (spinner) this.#spinner.start(spinner.label, spinner.started);
  }

  /** Removes the live tail: the cursor goes up over each of its rows, clearing it. */
  #eraseTail(): void {
    if (this.#tailRows === 0) return;
    this.#sink.write("\x1b[1A\x1b[2K".repeat(this.#tailRows));
    this.#tailRows = 0;
  }

  /** Styles show only where standard output takes colour too, as node:util's styleText decided before. */
  #colors?: boolean;

  #paint(color: Color, text: string): string {
    this.#colors ??= this.#options.useColor && stdoutTakesColor();
    return this.#colors ? styleText(color, text) : text;
  }
}
