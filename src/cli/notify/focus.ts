/**
 * Whether the terminal has the focus, from focus reporting (xterm's mode 1004, CSI ?1004h): the terminal
 * then sends ESC [ I when it gains the focus and ESC [ O when it loses it. The tracker only listens beside
 * whichever reader has stdin (the prompt, the cancel keys, the approval menu): it never reads by itself, and
 * those readers skip the two sequences as unknown keys.
 */
import process from "node:process";

/** Turns focus reporting on. */
export const FOCUS_ON = "\x1b[?1004h";
/** Turns it off (at exit: the shell after tern should not get the sequences). */
export const FOCUS_OFF = "\x1b[?1004l";

/** The part of stdin the tracker uses (node:process stdin, or a stand-in in tests). */
export interface FocusInput {
  readonly readableFlowing?: boolean | null;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  pause(): unknown;
}

/** The focus as the terminal last reported it: unknown until it reports once. */
export class FocusTracker {
  #focused: boolean | undefined;
  /** An ESC or ESC [ at the end of a chunk, waiting for the rest of the sequence. */
  #tail = "";

  /** True or false once the terminal said so; undefined while it has not (or cannot). */
  get focused(): boolean | undefined {
    return this.#focused;
  }

  /** Reads one chunk of input: the last focus sequence in it wins. */
  feed(text: string): void {
    const input = this.#tail + text;
    const last = Math.max(input.lastIndexOf("\x1b[I"), input.lastIndexOf("\x1b[O"));
    if (last >= 0) this.#focused = input[last + 2] === "I";
    this.#tail = input.endsWith("\x1b[") ? "\x1b[" : input.endsWith("\x1b") ? "\x1b" : "";
  }
}

/** A tracker listening on `input` with reporting on; `stop()` turns it off again and stops listening. */
export function trackFocus(
  write: (text: string) => void,
  input: FocusInput = process.stdin,
): { tracker: FocusTracker; stop(): void } {
  const tracker = new FocusTracker();
  const decoder = new TextDecoder();
  const onData = (chunk: Uint8Array | string) =>
    tracker.feed(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  // A "data" listener starts a stream that never flowed; paused first, it waits for a reader to resume it.
  if (input.readableFlowing !== true) input.pause();
  input.on("data", onData);
  write(FOCUS_ON);
  let stopped = false;
  return {
    tracker,
    stop() {
      if (stopped) return;
      stopped = true;
      input.off("data", onData);
      write(FOCUS_OFF);
    },
  };
}
