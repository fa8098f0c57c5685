import { assertEquals } from "../../support/assert.ts";
import { FOCUS_OFF, FOCUS_ON, FocusTracker, trackFocus } from "../../../src/cli/notify/focus.ts";

Deno.test("FocusTracker is unknown until the terminal reports, then follows the last report", () => {
  const tracker = new FocusTracker();
  assertEquals(tracker.focused, undefined);
  tracker.feed("abc\x1b[A"); // an arrow key is not a focus report
  assertEquals(tracker.focused, undefined);
  tracker.feed("\x1b[O");
  assertEquals(tracker.focused, false);
  tracker.feed("x\x1b[Oy\x1b[Iz");
  assertEquals(tracker.focused, true);
});

Deno.test("FocusTracker reads a report split between two chunks", () => {
  const tracker = new FocusTracker();
  tracker.feed("typed\x1b");
  tracker.feed("[O");
  assertEquals(tracker.focused, false);
  tracker.feed("\x1b[");
  tracker.feed("I");
  assertEquals(tracker.focused, true);
});

/** A stand-in for stdin that records what the tracker does to it. */
function fakeInput(flowing: boolean | null) {
  const listeners = new Set<(chunk: Uint8Array | string) => void>();
  const calls: string[] = [];
  return {
    readableFlowing: flowing,
    calls,
    emit: (chunk: string) => listeners.forEach((listener) => listener(new TextEncoder().encode(chunk))),
    on: (_: "data", listener: (chunk: Uint8Array | string) => void) => listeners.add(listener),
    off: (_: "data", listener: (chunk: Uint8Array | string) => void) => listeners.delete(listener),
    pause: () => calls.push("pause"),
    get listening() {
      return listeners.size;
    },
  };
}

Deno.test("trackFocus() turns reporting on, listens without starting a read, and turns it off once", () => {
  const input = fakeInput(null);
  const written: string[] = [];
  const focus = trackFocus((text) => written.push(text), input);
  assertEquals([written, input.calls, input.listening], [[FOCUS_ON], ["pause"], 1]);
  input.emit("\x1b[O");
  assertEquals(focus.tracker.focused, false);
  focus.stop();
  focus.stop();
  assertEquals([written, input.listening], [[FOCUS_ON, FOCUS_OFF], 0]);
});

Deno.test("trackFocus() leaves a stream that a reader has flowing as it is", () => {
  const input = fakeInput(true);
  trackFocus(() => {}, input).stop();
  assertEquals(input.calls, []);
});
