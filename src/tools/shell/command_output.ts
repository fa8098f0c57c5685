/**
 * A command's output as it streams, in bounded memory: redacted first, then kept as the model's view, as the
 * spill file's capture, and as a live tail of its last lines for the human.
 */

import { HeadTail, MAX_OUTPUT_CHARS, safeIndex } from "../_truncate.ts";
import { TAIL_LINES, type ToolUpdate } from "../tool.ts";
import { Redactor } from "./redact.ts";
import { after, type Timer } from "../../timer.ts";

/** Characters of output kept for the spill file at most (its first and last halves); the rest is counted. */
export const MAX_SPILL_CHARS = 2 * 1024 * 1024;

/** Fewest milliseconds between two progress updates: at most ten a second. */
const UPDATE_INTERVAL_MS = 100;

/** Characters a tail line shows at most (its end: where a progress bar or a path ends). */
const TAIL_LINE_CHARS = 200;

/** Characters of recent output the tail keeps: enough for its lines, whatever the output's length. */
const TAIL_KEEP_CHARS = TAIL_LINES * TAIL_LINE_CHARS * 2;

/**
 * The last lines of a stream, reported through `onUpdate` at most once per UPDATE_INTERVAL_MS and only when
 * they changed. Each push costs the chunk plus a few kilobytes, never the output so far; `end()` stops it.
 */
export class LiveTail {
  #recent = "";
  #sent = "";
  #sentAt = Number.NEGATIVE_INFINITY;
  #timer?: Timer;
  #ended = false;
  readonly #onUpdate: (update: ToolUpdate) => void;
  readonly #now: () => number;

  /** `now` is the clock in milliseconds (tests drive it by hand). */
  constructor(onUpdate: (update: ToolUpdate) => void, now: () => number = () => performance.now()) {
    this.#onUpdate = onUpdate;
    this.#now = now;
  }

  /** Adds output; reports the new tail now, or once the interval since the last report has passed. */
  push(text: string): void {
    if (this.#ended || text === "") return;
    const recent = text.length >= TAIL_KEEP_CHARS ? text : this.#recent + text;
    this.#recent = recent.length > TAIL_KEEP_CHARS ? recent.slice(-TAIL_KEEP_CHARS) : recent;
    const wait = this.#sentAt + UPDATE_INTERVAL_MS - this.#now();
    if (wait <= 0) return this.#report();
    this.#timer ??= after(wait, () => this.#report());
  }

  /** Stops reporting: no update follows, and no timer is left behind. */
  end(): void {
    this.#ended = true;
    this.#timer?.clear();
    this.#timer = undefined;
  }

  /** The last TAIL_LINES lines that are not blank; a line rewritten with "\r" shows as it stands now. */
  lines(): string[] {
    const lines = this.#recent.split("\n").map((line) => line.slice(line.lastIndexOf("\r") + 1));
    return lines.filter((line) => line.trim() !== "").slice(-TAIL_LINES).map((line) =>
      line.length > TAIL_LINE_CHARS
        ? `…${line.slice(safeIndex(line, line.length - TAIL_LINE_CHARS + 1))}`
        : line
    );
  }

  #report(): void {
    this.#timer?.clear();
    this.#timer = undefined;
    const tail = this.lines();
    const key = tail.join("\n");
    if (key === this.#sent) return;
    this.#sent = key;
    this.#sentAt = this.#now();
    this.#onUpdate({ tail });
  }
}

/**
 * The command's output in bounded memory, redacted before anything is cut or shown: the view for the model
 * (MAX_OUTPUT_CHARS), a larger capture for the spill file (MAX_SPILL_CHARS), both head + tail, and the live
 * tail when someone listens.
 */
export class CommandOutput {
  readonly view = new HeadTail(MAX_OUTPUT_CHARS);
  readonly full = new HeadTail(MAX_SPILL_CHARS);
  total = 0;
  readonly #redactor: Redactor;
  readonly #tail?: LiveTail;

  constructor(secrets: string[], onUpdate?: (update: ToolUpdate) => void) {
    this.#redactor = new Redactor(secrets);
    if (onUpdate) this.#tail = new LiveTail(onUpdate);
  }

  push(text: string): void {
    this.#add(this.#redactor.push(text));
  }

  /** The end of the stream: what the redactor held back is released, and the live tail stops. */
  end(): void {
    this.#add(this.#redactor.flush());
    this.#tail?.end();
  }

  /** Stops the live tail also when the stream never ended (its reader failed). */
  stop(): void {
    this.#tail?.end();
  }

  #add(text: string): void {
    this.total += text.length;
    this.view.push(text);
    this.full.push(text);
    this.#tail?.push(text);
  }
}
