import { assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { runTask } from "../../src/agent/loop/loop.ts";
import { createClient } from "../../src/llm/client.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { loopOptions, system } from "./loop/_loop_fixtures.ts";

Deno.test("--fallback: after retries on 503 the call continues on the fallback's wire and says so", async () => {
  await using primary = startFakeModel([{ status: 503 }, { status: 503 }, { status: 503 }, {
    text: "primary again",
  }]);
  await using backup = startFakeModel([{ reasoning: "hm", text: "from the fallback" }]);
  const fallback = {
    client: createClient({ api: "anthropic", baseUrl: backup.root, apiKey: "k" }),
    model: "claude-backup",
    label: "anthropic/claude-backup",
  };
  const retry = { maxAttempts: 3, sleep: () => Promise.resolve() };
  const options = loopOptions(primary, { fallback, retry });
  const result = await runTask(system(), "go", options);
  assertEquals([result.exitReason, result.text], ["done", "from the fallback"]);
  assertStrictEquals(primary.requests.length, 3);
  assertEquals([backup.wires, backup.requests[0].model], [["anthropic"], "claude-backup"]);
  const notices = options.events.filter((e) => e.type === "notice").map((e) =>
    e.type === "notice" && e.message
  );
  assertStrictEquals(notices.length, 1);
  assertMatch(
    String(notices[0]),
    /HTTP 503 .*gave up after 3 attempts.*; continuing on anthropic\/claude-backup\.$/,
  );
  // The next task starts on the primary again.
  const next = await runTask(system(), "again", loopOptions(primary, { fallback }));
  assertStrictEquals(next.text, "primary again");
});

Deno.test("--fallback is not used for a request the server rejects (400) or after output was shown", async () => {
  await using primary = startFakeModel([
    { status: 400, errorBody: '{"error":{"message":"bad request"}}' },
    { text: "Half an ans", streamError: { message: "Overloaded", type: "overloaded_error" } },
  ]);
  await using backup = startFakeModel([{ text: "never" }]);
  const fallback = {
    client: createClient({ api: "chat", baseUrl: backup.url }),
    model: "m",
    label: "chat/m",
  };
  const rejected = await runTask(system(), "go", loopOptions(primary, { fallback }));
  assertStrictEquals(rejected.exitReason, "error");
  // With no retry left, an answer cut after it showed text is kept as interrupted, not moved to the fallback.
  const cut = await runTask(system(), "go", loopOptions(primary, { fallback, retry: { maxAttempts: 1 } }));
  assertStrictEquals(cut.exitReason, "error");
  assertMatch(String(cut.error), /interrupted/);
  assertStrictEquals(backup.requests.length, 0);
});
