/**
 * Esc and Ctrl-C during a turn: stdin in raw mode, bytes parsed so arrow keys and Alt combinations (which
 * also start with ESC) never cancel. The byte parser is pure; the listener wraps node:process stdin,
 * the same stream readline and @inquirer/prompts read, so they can take turns on it.
 */
import process from "node:process";

/** How long a lone ESC waits for the rest of an escape sequence before it counts as the Esc key. */
export const ESC_WAIT_MS = 30;

/** A key that cancels the turn. */
export type CancelKey = "escape" | "ctrl-c";

const ESC = 0x1b;
const CTRL_C = 0x03;

/**
 * Splits terminal input into cancel keys. ESC followed by "[" (CSI: arrows, function keys, bracketed paste)
 * or "O" (SS3: arrows in application mode) starts a sequence that is skipped to its final byte; ESC followed
 * by anything else is an Alt combination and ignored. An ESC at the end of the input is undecided until
 * more bytes arrive or `flush()` is called after ESC_WAIT_MS of silence. State carries across chunks, so a
 * sequence split between two reads is still recognised.
 */
export class KeyParser {
  #state: "ground" | "esc" | "csi" | "ss3" = "ground";

  /** True when the input ended in a lone ESC: call `flush()` if nothing follows within ESC_WAIT_MS. */
  get pendingEscape(): boolean {
    return this.#state === "esc";
  }

  /** Consumes one chunk of input; returns the cancel keys in it, in order. */
  feed(bytes: Uint8Array): CancelKey[] {
    const keys: CancelKey[] = [];
    for (const byte of bytes) {
      if (byte === CTRL_C) {
        keys.push("ctrl-c");
        this.#state = "ground";
        continue;
      }
      switch (this.#state) {
        case "ground":
          if (byte === ESC) this.#state = "esc";
          break;
        case "esc":
          // ESC ESC: the first was the Esc key (Alt+Esc sends the same and may as well cancel).
          if (byte === ESC) keys.push("escape");
          else this.#state = byte === 0x5b ? "csi" : byte === 0x4f ? "ss3" : "ground";
          break;
        case "csi":
          // Parameter and intermediate bytes are 0x20-0x3f; the final byte is 0x40-0x7e.
          if (byte === ESC) this.#state = "esc";
          else if (byte >= 0x40 && byte <= 0x7e) this.#state = "ground";
          break;
        case "ss3":
          this.#state = byte === ESC ? "esc" : "ground";
          break;
      }
    }
    return keys;
  }

  /** Ends a wait: a pending lone ESC is the Esc key; an unfinished sequence is dropped. */
  flush(): CancelKey[] {
    const wasEscape = this.#state === "esc";
    this.#state = "ground";
    return wasEscape ? ["escape"] : [];
  }
}

/** The part of a tty read stream the listener uses (node:process stdin, or a stand-in in tests). */
export interface KeyInput {
  isTTY?: boolean;
  setRawMode(mode: boolean): unknown;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** A running cancel-key listener. All methods are idempotent; after `stop()` nothing restarts it. */
export interface KeyListener {
  /** Gives stdin back (cooked mode, not read) so a prompt such as the approval question can use it. */
  pause(): void;
  /** Takes stdin again after `pause()`. */
  resume(): void;
  /** Restores cooked mode and releases stdin for good; the process can exit, readline can read again. */
  stop(): void;
}

/**
 * Listens for Esc and Ctrl-C while a turn runs and calls `onCancel` for each. Bytes typed meanwhile are
 * consumed and dropped (no echo). Without a terminal on stdin it does nothing: a piped REPL's input
 * belongs to the line reader, and SIGINT still cancels.
 */
export function listenForCancel(
  onCancel: (key: CancelKey) => void,
  options: { input?: KeyInput } = {},
): KeyListener {
  const input = options.input ?? process.stdin;
  if (!input.isTTY) return { pause() {}, resume() {}, stop() {} };
  const parser = new KeyParser();
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let active = false;
  let stopped = false;
  const emit = (keys: CancelKey[]) => keys.forEach((key) => onCancel(key));
  const onData = (chunk: Uint8Array | string) => {
    clearTimeout(timer);
    timer = undefined;
    emit(parser.feed(typeof chunk === "string" ? encoder.encode(chunk) : chunk));
    if (parser.pendingEscape) timer = setTimeout(() => emit(parser.flush()), ESC_WAIT_MS);
  };
  const pause = () => {
    if (!active) return;
    active = false;
    clearTimeout(timer);
    timer = undefined;
    parser.flush();
    input.off("data", onData);
    input.setRawMode(false);
    // Paused, the stream stops reading fd 0, so the next reader gets every byte and the process may exit.
    input.pause();
  };
  const resume = () => {
    if (active || stopped) return;
    active = true;
    input.setRawMode(true);
    input.on("data", onData);
    input.resume();
  };
  resume();
  return {
    pause,
    resume,
    stop: () => {
      pause();
      stopped = true;
    },
  };
}
