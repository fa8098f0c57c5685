import { assert, assertEquals } from "../../support/assert.ts";
import { type CancelState, scheduleCalls, type ScheduleOptions } from "../../../src/agent/loop/scheduler.ts";

type Kind = "r" | "w";
type Call = { kind: Kind; name: string };

/**
 * A fake tool runner: every call stays running until the test releases it, so the test decides the order
 * in which calls finish and can look at what runs at the same time. Results are strings.
 */
function fakeRunner(calls: Call[]) {
  const log: string[] = [];
  const running = new Set<string>();
  let maxRunning = 0;
  const gates = new Map<string, () => void>();
  let changed = Promise.withResolvers<void>();
  const options: ScheduleOptions<Call, string> = {
    isReadOnly: (call) => call.kind === "r",
    run: async (call) => {
      running.add(call.name);
      maxRunning = Math.max(maxRunning, running.size);
      log.push(`start ${call.name}`);
      const gate = Promise.withResolvers<void>();
      gates.set(call.name, gate.resolve);
      changed.resolve();
      await gate.promise;
      running.delete(call.name);
      log.push(`end ${call.name}`);
      return `result ${call.name}`;
    },
    cancelled: (call, _index, state: CancelState) => `cancelled ${call.name} (${state})`,
  };
  return {
    calls,
    options,
    log,
    running,
    maxRunning: () => maxRunning,
    /** Waits until `names` are all running (started and not released). */
    async until(...names: string[]) {
      while (!names.every((name) => running.has(name))) {
        changed = Promise.withResolvers<void>();
        await changed.promise;
      }
    },
    release(name: string) {
      gates.get(name)!();
    },
    releaseAll() {
      for (const release of gates.values()) release();
    },
  };
}

const calls = (spec: string): Call[] => spec.split(" ").map((name) => ({ kind: name[0] as Kind, name }));

/** Releases every call as soon as it runs, in start order, until the schedule is done. */
async function drive(fake: ReturnType<typeof fakeRunner>, done: Promise<unknown>): Promise<void> {
  let finished = false;
  done.then(() => finished = true, () => finished = true);
  while (!finished) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    fake.releaseAll();
  }
}

Deno.test("scheduleCalls() runs at most 4 consecutive reads at once and returns results in the model's order", async () => {
  const fake = fakeRunner(calls("r1 r2 r3 r4 r5 r6 r7"));
  const done = scheduleCalls(fake.calls, fake.options);
  await fake.until("r1", "r2", "r3", "r4");
  assertEquals(fake.running.size, 4);
  // Finishing r3 first frees one slot, which the next read in order takes.
  fake.release("r3");
  await fake.until("r5");
  assertEquals([...fake.running].sort(), ["r1", "r2", "r4", "r5"]);
  await drive(fake, done);
  assertEquals(await done, fake.calls.map((call) => `result ${call.name}`));
  assertEquals(fake.maxRunning(), 4);
});

Deno.test("scheduleCalls() honours a smaller maxParallel", async () => {
  const fake = fakeRunner(calls("r1 r2 r3 r4 r5"));
  const done = scheduleCalls(fake.calls, { ...fake.options, maxParallel: 2 });
  await drive(fake, done);
  assertEquals(fake.maxRunning(), 2);
  assertEquals((await done).length, 5);
});

Deno.test("scheduleCalls() runs a write alone, after the reads before it and before the reads after it", async () => {
  const fake = fakeRunner(calls("r1 r2 w1 r3 r4 w2 w3 r5"));
  const done = scheduleCalls(fake.calls, fake.options);
  await drive(fake, done);
  const results = await done;
  assertEquals(results, fake.calls.map((call) => `result ${call.name}`));
  const at = (entry: string) => fake.log.indexOf(entry);
  assert(at("start w1") > at("end r1") && at("start w1") > at("end r2"), fake.log.join(", "));
  assert(at("start r3") > at("end w1") && at("start r4") > at("end w1"), fake.log.join(", "));
  assert(at("start w2") > at("end r3") && at("start w2") > at("end r4"), fake.log.join(", "));
  assert(at("start w3") > at("end w2"), fake.log.join(", "));
  assert(at("start r5") > at("end w3"), fake.log.join(", "));
});

Deno.test("scheduleCalls() never runs two writes or commands at the same time", async () => {
  const fake = fakeRunner(calls("w1 w2 w3 w4 w5"));
  const done = scheduleCalls(fake.calls, fake.options);
  await drive(fake, done);
  assertEquals(fake.maxRunning(), 1);
  assertEquals(fake.log, ["w1", "w2", "w3", "w4", "w5"].flatMap((name) => [`start ${name}`, `end ${name}`]));
});

Deno.test("scheduleCalls() reports each result in the model's order as soon as those before it are in", async () => {
  const fake = fakeRunner(calls("r1 r2 w1"));
  const reported: string[] = [];
  const done = scheduleCalls(fake.calls, {
    ...fake.options,
    onSettled: (result, call, index) => reported.push(`${index}:${call.name}:${result}`),
  });
  await fake.until("r1", "r2");
  fake.release("r2");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(reported, [], "r2 waits for r1 before it is reported");
  fake.release("r1");
  await fake.until("w1");
  assertEquals(
    reported,
    ["0:r1:result r1", "1:r2:result r2"],
    "the reads are reported before the write runs",
  );
  fake.release("w1");
  await done;
  assertEquals(reported.length, 3);
});

Deno.test("scheduleCalls() on abort cancels calls not started and abandons running reads without waiting", async () => {
  const fake = fakeRunner(calls("r1 r2 r3 r4 r5 w1 r6"));
  const controller = new AbortController();
  const done = scheduleCalls(fake.calls, { ...fake.options, signal: controller.signal });
  await fake.until("r1", "r2", "r3", "r4");
  fake.release("r2");
  await fake.until("r5");
  controller.abort();
  // Nothing is released: the schedule must end without the running reads.
  assertEquals(await done, [
    "cancelled r1 (abandoned)",
    "result r2",
    "cancelled r3 (abandoned)",
    "cancelled r4 (abandoned)",
    "cancelled r5 (abandoned)",
    "cancelled w1 (not_started)",
    "cancelled r6 (not_started)",
  ]);
  assert(!fake.log.includes("start w1"));
  fake.releaseAll(); // let the abandoned fakes end, as real tools do when they see the signal
});

Deno.test("scheduleCalls() on abort waits for a running write, which stops itself, and starts nothing after it", async () => {
  const fake = fakeRunner(calls("w1 w2 r1"));
  const controller = new AbortController();
  const done = scheduleCalls(fake.calls, { ...fake.options, signal: controller.signal });
  await fake.until("w1");
  controller.abort();
  let settled = false;
  done.then(() => settled = true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(settled, false, "a running write is awaited");
  fake.release("w1");
  assertEquals(await done, ["result w1", "cancelled w2 (not_started)", "cancelled r1 (not_started)"]);
});

Deno.test("scheduleCalls() with an already aborted signal starts nothing", async () => {
  const fake = fakeRunner(calls("r1 w1"));
  const controller = new AbortController();
  controller.abort();
  const results = await scheduleCalls(fake.calls, { ...fake.options, signal: controller.signal });
  assertEquals(results, ["cancelled r1 (not_started)", "cancelled w1 (not_started)"]);
  assertEquals(fake.log, []);
});

Deno.test("scheduleCalls() returns an empty list for no calls and refuses a maxParallel below 1", async () => {
  const fake = fakeRunner([]);
  assertEquals(await scheduleCalls([], fake.options), []);
  let error: unknown;
  try {
    await scheduleCalls(calls("r1"), { ...fake.options, maxParallel: 0 });
  } catch (caught) {
    error = caught;
  }
  assert(error instanceof RangeError);
});

Deno.test("scheduleCalls() asks the call after a run of reads again once those reads finished", async () => {
  const asked: string[] = [];
  const done: string[] = [];
  const turn = calls("r1 r2 w1 r3");
  await scheduleCalls(turn, {
    isReadOnly: (call) => {
      asked.push(`${call.name} after ${done.join(",") || "nothing"}`);
      return call.kind === "r";
    },
    run: (call) => {
      done.push(call.name);
      return Promise.resolve(call.name);
    },
    cancelled: (call) => call.name,
  });
  assertEquals(asked, [
    "r1 after nothing",
    "r2 after nothing",
    "w1 after nothing",
    // Reads can change what a write finds (whether its file was read): it is asked again, fresh.
    "w1 after r1,r2",
    "r3 after r1,r2,w1",
  ]);
});
