import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import {
  actionKey,
  REMINDER_AT,
  RUNAWAY_REMINDER,
  RunawayGuard,
  type RunawayVerdict,
  type StepCall,
  STOP_AT,
} from "../../../src/agent/loop/runaway.ts";

let nextId = 0;

/** One executed, successful call unless told otherwise. */
function call(name: string, args: string, extra: Partial<StepCall> = {}): StepCall {
  return {
    id: `call_${nextId++}`,
    name,
    arguments: args,
    isError: false,
    executed: true,
    ...extra,
  };
}

function actions(verdicts: RunawayVerdict[]): string[] {
  return verdicts.map((v) => v.action);
}

Deno.test("the reminder threshold is below the stop window", () => {
  assert(REMINDER_AT < STOP_AT);
  assertEquals([REMINDER_AT, STOP_AT], [3, 5]);
});

Deno.test("RunawayGuard reminds once at 3 and stops at 5 when the same tool call repeats 6 times", () => {
  const guard = new RunawayGuard();
  const steps = Array.from({ length: 6 }, () => [call("read_file", '{"path":"a.ts"}')]);
  const verdicts = steps.map((step) => guard.observe(step));
  assertEquals(actions(verdicts), ["continue", "continue", "remind", "continue", "stop", "stop"]);
  assertEquals(verdicts[2], { action: "remind", callId: steps[2][0].id, text: RUNAWAY_REMINDER });
  assertEquals(verdicts[4], {
    action: "stop",
    reason: 'read_file {"path":"a.ts"} repeated 5 times in a row',
  });
});

Deno.test("RunawayGuard never reminds for an alternating pair of calls", () => {
  const guard = new RunawayGuard();
  const verdicts = Array.from(
    { length: 8 },
    (_, i) =>
      guard.observe([i % 2 === 0 ? call("read_file", '{"path":"a.ts"}') : call("list_dir", '{"path":"."}')]),
  );
  assertEquals(actions(verdicts), Array(8).fill("continue"));
});

Deno.test("RunawayGuard does not count calls that were denied or refused", () => {
  const guard = new RunawayGuard();
  const same = () => call("execute_command", '{"command":"rm -rf build"}');
  const denied = (c: StepCall) => ({
    ...c,
    executed: false,
    isError: true,
    errorKind: "denied" as const,
  });
  const verdicts = [
    guard.observe([same()]),
    guard.observe([denied(same())]),
    guard.observe([denied(same())]),
    guard.observe([denied(same())]),
    guard.observe([same()]),
  ];
  assertEquals(actions(verdicts), Array(5).fill("continue"));
  // Denied steps neither extend nor end the streak: the next executed repeat is the third.
  assertEquals(guard.observe([same()]).action, "remind");
});

Deno.test("RunawayGuard treats arguments that differ only in key order as the same action", () => {
  const guard = new RunawayGuard();
  guard.observe([call("read_file", '{"path":"a.ts","offset":1}')]);
  guard.observe([call("read_file", '{"offset":1, "path":"a.ts"}')]);
  assertEquals(guard.observe([call("read_file", '{ "offset": 1, "path": "a.ts" }')]).action, "remind");
});

Deno.test("RunawayGuard ends a streak at the first step without the action", () => {
  const guard = new RunawayGuard();
  const a = () => call("read_file", '{"path":"a.ts"}');
  const verdicts = [a(), a(), call("read_file", '{"path":"b.ts"}'), a(), a()].map((c) => guard.observe([c]));
  assertEquals(actions(verdicts), Array(5).fill("continue"));
  assertEquals(guard.observe([a()]).action, "remind");
});

Deno.test("RunawayGuard gives at most one reminder per task", () => {
  const guard = new RunawayGuard();
  const a = () => call("read_file", '{"path":"a.ts"}');
  const b = () => call("read_file", '{"path":"b.ts"}');
  const verdicts = [a(), a(), a(), b(), b(), b(), b()].map((c) => guard.observe([c]));
  assertEquals(actions(verdicts), [
    "continue",
    "continue",
    "remind",
    "continue",
    "continue",
    "continue",
    "continue",
  ]);
  assertEquals(guard.observe([b()]).action, "stop");
});

Deno.test("RunawayGuard counts a call repeated within one step once for that step", () => {
  const guard = new RunawayGuard();
  const a = () => call("read_file", '{"path":"a.ts"}');
  assertEquals(guard.observe([a(), a(), a()]).action, "continue");
  assertEquals(guard.observe([a(), a()]).action, "continue");
});

Deno.test("RunawayGuard counts each call of a multi-call step separately", () => {
  const guard = new RunawayGuard();
  // The step's other call changes every time; the read of a.ts still repeats.
  const steps = ["x", "y", "z"].map((dir) => [
    call("list_dir", `{"path":"${dir}"}`),
    call("read_file", '{"path":"a.ts"}'),
  ]);
  const verdicts = steps.map((step) => guard.observe(step));
  assertEquals(actions(verdicts), ["continue", "continue", "remind"]);
  assertEquals(verdicts[2], { action: "remind", callId: steps[2][1].id, text: RUNAWAY_REMINDER });
});

Deno.test("RunawayGuard notices the same error class across different calls", () => {
  const guard = new RunawayGuard();
  const missing = (path: string) =>
    call("read_file", `{"path":"${path}"}`, { isError: true, errorKind: "not_found" });
  const steps = ["a.ts", "b.ts", "c.ts", "d.ts", "e.ts"].map((path) => [missing(path)]);
  const verdicts = steps.map((step) => guard.observe(step));
  assertEquals(actions(verdicts), ["continue", "continue", "remind", "continue", "stop"]);
  assertEquals(verdicts[4], {
    action: "stop",
    reason: 'the error kind "not_found" repeated 5 times in a row',
  });
});

Deno.test("RunawayGuard ends an error streak at a step without that error", () => {
  const guard = new RunawayGuard();
  const failing = (n: number) =>
    call("execute_command", `{"command":"make ${n}"}`, { isError: true, errorKind: "exit_code" });
  const verdicts = [failing(1), failing(2), call("list_dir", "{}"), failing(3), failing(4)].map((c) =>
    guard.observe([c])
  );
  assertEquals(actions(verdicts), Array(5).fill("continue"));
});

Deno.test("RunawayGuard ignores a step in which nothing was executed", () => {
  const guard = new RunawayGuard();
  assertEquals(guard.observe([]), { action: "continue" });
  assertEquals(guard.observe([call("write_file", "{}", { executed: false })]), { action: "continue" });
});

Deno.test("the reminder says repeating is not progress and that it is temporary, for this task only", () => {
  assertStringIncludes(RUNAWAY_REMINDER, "Repeating is not progress");
  assertStringIncludes(RUNAWAY_REMINDER, "change your approach and say what you expect to change");
  assertStringIncludes(RUNAWAY_REMINDER, "say where you are stuck");
  assertStringIncludes(RUNAWAY_REMINDER, "temporary reminder for this task only, not a user preference");
  assertStringIncludes(RUNAWAY_REMINDER, "never save it");
});

Deno.test("actionKey() sorts object keys at every depth and keeps array order", () => {
  assertEquals(
    actionKey("t", '{"b":{"y":1,"x":[{"q":1,"p":2}]},"a":0}'),
    't {"a":0,"b":{"x":[{"p":2,"q":1}],"y":1}}',
  );
  assert(actionKey("t", "[1,2]") !== actionKey("t", "[2,1]"));
  assert(actionKey("a", "{}") !== actionKey("b", "{}"));
  assertEquals(actionKey("t", ""), actionKey("t", "{}"));
});

Deno.test("actionKey() compares invalid JSON as raw text", () => {
  assertEquals(actionKey("t", '{"path": "a'), actionKey("t", '{"path": "a'));
  assert(actionKey("t", '{"path": "a') !== actionKey("t", '{"path":  "a'));
  assert(actionKey("t", '{"path": "a') !== actionKey("t", '{"path":"a"}'));
});

Deno.test("RunawayGuard tells errors apart by the kind the tool gave, never by their text", () => {
  const guard = new RunawayGuard();
  // A command whose output happens to say "not found" is a failed command, not a missing file.
  const failed = (n: number) =>
    call("execute_command", `{"command":"t ${n}"}`, { isError: true, errorKind: "exit_code" });
  const missing = (n: number) =>
    call("read_file", `{"path":"${n}"}`, { isError: true, errorKind: "not_found" });
  const alternating = [failed(1), missing(2), failed(3), missing(4), failed(5)].map((c) =>
    guard.observe([c])
  );
  assertEquals(actions(alternating), Array(5).fill("continue"));
  const timeouts = [1, 2, 3].map((n) =>
    guard.observe([call("execute_command", `{"command":"s ${n}"}`, { isError: true, errorKind: "timeout" })])
  );
  assertEquals(actions(timeouts), ["continue", "continue", "remind"]);
});
