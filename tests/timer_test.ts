import { assert, assertEquals } from "./support/assert.ts";
import { after } from "../src/timer.ts";

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => after(ms, resolve));
}

Deno.test("after() fires each timer once, earliest first, and those due together in the order they were set", async () => {
  const fired: string[] = [];
  after(30, () => fired.push("30"));
  after(10, () => fired.push("10a"));
  after(10, () => fired.push("10b"));
  after(0, () => fired.push("0"));
  await sleep(60);
  assertEquals(fired, ["0", "10a", "10b", "30"]);
});

Deno.test("after(): a cleared timer never fires; clearing a fired one changes nothing", async () => {
  const fired: string[] = [];
  const cleared = after(10, () => fired.push("cleared"));
  const kept = after(10, () => fired.push("kept"));
  cleared.clear();
  await sleep(30);
  kept.clear();
  assertEquals(fired, ["kept"]);
});

Deno.test("after(): a timer set while a later one waits fires on its own time, not the later one's", async () => {
  const start = performance.now();
  let at = 0;
  after(400, () => {});
  await new Promise<void>((resolve) =>
    after(20, () => {
      at = performance.now() - start;
      resolve();
    })
  );
  assert(at >= 19 && at < 300, `fired after ${at} ms`);
});

Deno.test("after(): a timer set by a timer's callback fires too", async () => {
  const fired: string[] = [];
  after(5, () => after(5, () => fired.push("inner")));
  await sleep(40);
  assertEquals(fired, ["inner"]);
});

Deno.test("after(): a wait longer than one step (1 s) fires once it is due, not at the step", async () => {
  const start = performance.now();
  await sleep(1300);
  const took = performance.now() - start;
  assert(took >= 1299 && took < 1900, `took ${took} ms`);
});

Deno.test("after(): a callback that throws does not stop the timers due with it, and its error surfaces", async () => {
  const fired: string[] = [];
  const errors: unknown[] = [];
  const onError = (event: ErrorEvent) => {
    event.preventDefault();
    errors.push(event.error);
  };
  globalThis.addEventListener("error", onError);
  try {
    after(5, () => {
      throw new Error("boom");
    });
    after(5, () => fired.push("next"));
    await sleep(30);
  } finally {
    globalThis.removeEventListener("error", onError);
  }
  assertEquals(fired, ["next"]);
  assertEquals(errors.map((error) => (error as Error).message), ["boom"]);
});
