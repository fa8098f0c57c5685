/** The spinner under a running call: a frame, a label, the seconds since it started and a token estimate. */
import type { Sink } from "./sink.ts";
import { thousands } from "./task_words.ts";

const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** How the spinner colours its frame and its words (plain text without colour). */
export type SpinnerPaint = (color: "cyan" | "dim", text: string) => string;

/** One spinner on one sink, drawn in place every 100 ms on a terminal only; `stop()` releases its timer. */
export class Spinner {
  #running?: { timer: ReturnType<typeof setInterval>; started: number; label: string };
  #started = Date.now();

  /** `streamed` gives the characters streamed since the model call began (about four a token). */
  constructor(
    private readonly sink: Sink,
    private readonly paint: SpinnerPaint,
    private readonly streamed: () => number,
  ) {}

  /** The spinner shown now, if one is: its label and when it started. */
  get running(): { started: number; label: string } | undefined {
    return this.#running;
  }

  /** When the last spinner drawn on a terminal started: a spinner that comes back keeps counting from it. */
  get started(): number {
    return this.#started;
  }

  /** Replaces any spinner with one saying `label`, counting from `started`; nothing when not a terminal. */
  start(label: string, started = Date.now()): void {
    this.stop();
    if (!this.sink.isTerminal) return;
    this.#started = started;
    let frame = 0;
    const draw = () => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const streamed = this.streamed();
      // About four characters a token: a live estimate until the usage arrives.
      const tokens = streamed > 0 ? ` · ~${thousands(Math.ceil(streamed / 4))} tokens` : "";
      this.sink.write(
        `\r${this.paint("cyan", SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length])} ` +
          this.paint("dim", `${label} ${seconds}s${tokens} · Esc cancels`),
      );
    };
    draw();
    this.#running = { timer: setInterval(draw, 100), started, label };
  }

  /** Stops the spinner and clears its row; nothing when none runs. */
  stop(): void {
    if (!this.#running) return;
    clearInterval(this.#running.timer);
    this.#running = undefined;
    this.sink.write("\r\x1b[2K");
  }
}
