import { assertEquals, assertMatch, assertRejects, assertStrictEquals } from "../support/assert.ts";
import { withFileLock } from "../../src/fs/file_lock.ts";

function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}

Deno.test("withFileLock() runs tasks on one path one at a time, in call order", async () => {
  const log: string[] = [];
  const task = (name: string) => async () => {
    log.push(`${name} start`);
    await tick();
    log.push(`${name} end`);
    return name;
  };
  const results = await Promise.all(["a", "b", "c"].map((name) => withFileLock("/p/x", task(name))));
  assertEquals(results, ["a", "b", "c"]);
  assertEquals(log, ["a start", "a end", "b start", "b end", "c start", "c end"]);
});

Deno.test("withFileLock() lets tasks on different paths overlap", async () => {
  const log: string[] = [];
  const task = (name: string) => async () => {
    log.push(`${name} start`);
    await tick();
    log.push(`${name} end`);
  };
  await Promise.all([withFileLock("/p/x", task("x")), withFileLock("/p/y", task("y"))]);
  assertEquals(log.slice(0, 2), ["x start", "y start"]);
});

Deno.test("withFileLock() releases the lock when a task fails", async () => {
  const failed = withFileLock("/p/z", () => Promise.reject(new Error("boom")));
  const next = withFileLock("/p/z", () => Promise.resolve("ran"));
  assertMatch(String(await assertRejects(() => failed)), /boom/);
  assertStrictEquals(await next, "ran");
});
