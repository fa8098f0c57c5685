import { assertEquals, assertStrictEquals } from "../../support/assert.ts";
import { runTask } from "../../../src/agent/loop/loop.ts";
import { RequiredTools, unknownTools } from "../../../src/agent/loop/required_tools.ts";
import type { StepCall } from "../../../src/agent/loop/runaway.ts";
import { createClient } from "../../../src/llm/client.ts";
import type { WireApi } from "../../../src/llm/types.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { loopOptions, system } from "./_loop_fixtures.ts";

function step(name: string, outcome: { isError?: boolean; executed?: boolean } = {}): StepCall[] {
  return [{
    id: "c",
    name,
    arguments: "{}",
    isError: outcome.isError ?? false,
    executed: outcome.executed ?? true,
  }];
}

Deno.test("RequiredTools names each tool until a call of it succeeds, then says auto", () => {
  const policy = new RequiredTools(["echo", "explode"]);
  assertEquals(policy.choice(), { name: "echo" });
  policy.observe(step("echo", { isError: true }));
  assertEquals(policy.choice(), { name: "echo" }, "a failed call does not count");
  policy.observe(step("echo", { executed: false }));
  assertEquals(policy.choice(), { name: "echo" }, "a denied call does not count");
  policy.observe(step("explode"));
  assertEquals(policy.choice(), { name: "echo" }, "the wrong tool does not count");
  policy.observe([...step("echo"), ...step("explode")]);
  assertStrictEquals(policy.choice(), "auto");
});

Deno.test("RequiredTools without names never sets a tool choice", () => {
  assertStrictEquals(new RequiredTools().choice(), undefined);
  assertStrictEquals(new RequiredTools([]).choice(), undefined);
});

Deno.test("unknownTools() lists the required names no tool has", () => {
  assertEquals(unknownTools(["echo", "nope", "gone"], ["echo", "explode"]), ["nope", "gone"]);
  assertEquals(unknownTools([], ["echo"]), []);
});

/** Each wire's tool_choice in the request bodies, in tern's words. */
function choices(api: WireApi, bodies: Record<string, unknown>[]): string[] {
  return bodies.map((body) => {
    const choice = body.tool_choice as Record<string, unknown> | string | undefined;
    if (choice === undefined) return "-";
    if (typeof choice === "string") return choice;
    if (api === "chat") return (choice.function as { name: string } | undefined)?.name ?? String(choice.type);
    return String(choice.name ?? choice.type);
  });
}

for (const api of ["chat", "responses", "anthropic"] as const) {
  Deno.test(`--require-tools over ${api}: tool_choice changes exactly when a required call succeeds`, async () => {
    await using model = startFakeModel([
      { toolCalls: [{ name: "echo", arguments: "{}" }] }, // bad arguments: echo is still required
      { toolCalls: [{ name: "echo", arguments: '{"text":"a"}' }] }, // succeeds: explode is next
      { toolCalls: [{ name: "explode", arguments: "{}" }] }, // throws: explode is still required
      { toolCalls: [{ name: "echo", arguments: '{"text":"b"}' }] }, // the wrong tool: still explode
      { text: "explode never works" },
    ]);
    const baseUrl = api === "anthropic" ? model.root : model.url;
    const options = loopOptions(model, {
      client: createClient({ api, baseUrl, apiKey: "k" }),
      requireTools: ["echo", "explode"],
    });
    const result = await runTask(system(), "go", options);
    assertStrictEquals(result.exitReason, "done");
    assertEquals(choices(api, model.requests), ["echo", "echo", "explode", "explode", "explode"]);
  });

  Deno.test(`--require-tools over ${api} returns to auto once the last required tool succeeded`, async () => {
    await using model = startFakeModel([
      { toolCalls: [{ name: "echo", arguments: '{"text":"a"}' }] },
      { text: "done" },
    ]);
    const baseUrl = api === "anthropic" ? model.root : model.url;
    const client = createClient({ api, baseUrl, apiKey: "k" });
    await runTask(system(), "go", loopOptions(model, { client, requireTools: ["echo"] }));
    assertEquals(choices(api, model.requests), ["echo", "auto"]);
  });
}

Deno.test("without --require-tools no request carries a tool_choice", async () => {
  await using model = startFakeModel([{ toolCalls: [{ name: "echo", arguments: '{"text":"a"}' }] }, {
    text: "ok",
  }]);
  await runTask(system(), "go", loopOptions(model));
  assertEquals(choices("chat", model.requests), ["-", "-"]);
});
