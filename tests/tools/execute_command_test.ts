import assert from "node:assert/strict";
import { childEnv, executeCommandTool } from "../../src/tools/execute_command.ts";
import { alive, call, tempProject } from "./_helpers.ts";

function firstNumber(text: string): number {
  const pid = Number.parseInt(text, 10);
  assert.ok(pid > 1, `no pid in ${JSON.stringify(text)}`);
  return pid;
}

Deno.test("executeCommand() returns combined output and exit code 0", async () => {
  await using p = await tempProject();
  const result = await call(executeCommandTool, { command: "echo out; echo err >&2; echo again" }, p.ctx);
  assert.deepEqual(result, { content: "out\nerr\nagain\n[exit code 0]", isError: false });
});

Deno.test("executeCommand() runs in the project root", async () => {
  await using p = await tempProject();
  const result = await call(executeCommandTool, { command: "pwd" }, p.ctx);
  assert.equal(result.content, `${p.root}\n[exit code 0]`);
});

Deno.test("executeCommand() marks a non-zero exit as an error with the code", async () => {
  await using p = await tempProject();
  const result = await call(executeCommandTool, { command: "echo failing; exit 3" }, p.ctx);
  assert.deepEqual(result, { content: "failing\n[exit code 3]", isError: true });
});

Deno.test("executeCommand() closes stdin, so cat returns at once", async () => {
  await using p = await tempProject();
  const started = performance.now();
  const result = await call(executeCommandTool, { command: "cat", timeout_ms: 5000 }, p.ctx);
  assert.deepEqual(result, { content: "(no output)\n[exit code 0]", isError: false });
  assert.ok(performance.now() - started < 2000);
});

Deno.test("executeCommand() keeps the head and tail of long output and marks the cut", async () => {
  await using p = await tempProject();
  const { content, isError } = await call(executeCommandTool, { command: "seq 1 100000" }, p.ctx);
  assert.equal(isError, false);
  assert.ok(content.startsWith("1\n2\n3\n"));
  assert.ok(content.endsWith("99999\n100000\n[exit code 0]"));
  assert.match(content, /\n… \[\d+ characters cut\] …\n/);
  assert.ok(content.length < 8100, `length ${content.length}`);
});

Deno.test("executeCommand() caps a `yes` flood and kills it at the timeout", async () => {
  await using p = await tempProject();
  const started = performance.now();
  const { content, isError } = await call(executeCommandTool, { command: "yes", timeout_ms: 1000 }, p.ctx);
  assert.equal(isError, true);
  assert.ok(content.startsWith("y\ny\n"));
  assert.match(content, /characters cut/);
  assert.match(content, /\[timed out after 1 s: the command and its child processes were killed\]$/);
  assert.ok(content.length < 8200);
  assert.ok(performance.now() - started < 5000);
});

Deno.test("executeCommand() timeout kills a background child of the command too", async () => {
  await using p = await tempProject();
  const command = "sleep 30 & echo $!; wait";
  const { content, isError } = await call(executeCommandTool, { command, timeout_ms: 500 }, p.ctx);
  assert.equal(isError, true);
  assert.match(content, /timed out after 0\.5 s/);
  assert.equal(await alive(firstNumber(content)), false);
});

Deno.test("executeCommand() returns promptly when a background child keeps the output open, and kills it", async () => {
  await using p = await tempProject();
  const started = performance.now();
  const { content, isError } = await call(executeCommandTool, { command: "sleep 30 & echo $!" }, p.ctx);
  assert.equal(isError, false);
  assert.ok(performance.now() - started < 3000);
  assert.equal(await alive(firstNumber(content)), false);
});

Deno.test("executeCommand() abort via the signal kills the whole group promptly", async () => {
  await using p = await tempProject();
  const controller = new AbortController();
  const ctx = { root: p.root, signal: controller.signal };
  const pending = call(
    executeCommandTool,
    { command: "sleep 30 & echo $!; sleep 30", timeout_ms: 60_000 },
    ctx,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = performance.now();
  controller.abort();
  const { content, isError } = await pending;
  assert.ok(performance.now() - started < 1500, `took ${performance.now() - started} ms`);
  assert.equal(isError, true);
  assert.match(content, /\[cancelled by the user: the command and its child processes were killed\]$/);
  assert.equal(await alive(firstNumber(content)), false);
});

Deno.test("executeCommand() does not start when the signal is already aborted", async () => {
  await using p = await tempProject();
  const ctx = { root: p.root, signal: AbortSignal.abort() };
  const result = await call(executeCommandTool, { command: "touch started" }, ctx);
  assert.deepEqual(result, { content: "Cancelled before the command started.", isError: true });
  assert.equal(await Deno.stat(`${p.root}/started`).then(() => true, () => false), false);
});

Deno.test("executeCommand() passes a reduced environment without secrets", async () => {
  await using p = await tempProject();
  Deno.env.set("TERN_API_KEY", "sk-test-should-not-leak");
  Deno.env.set("MY_SECRET", "hunter2");
  try {
    const { content } = await call(executeCommandTool, { command: "env" }, p.ctx);
    assert.ok(!content.includes("TERN_API_KEY") && !content.includes("sk-test"));
    assert.ok(!content.includes("MY_SECRET") && !content.includes("hunter2"));
    assert.match(content, /^PATH=/m);
    assert.ok(Object.keys(childEnv()).every((name) => !/KEY|TOKEN|SECRET|PASSWORD/i.test(name)));
  } finally {
    Deno.env.delete("TERN_API_KEY");
    Deno.env.delete("MY_SECRET");
  }
});
