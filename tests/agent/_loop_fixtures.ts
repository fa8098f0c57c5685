/** Shared pieces of the agent-loop tests: small fake tools and loop options against the fake model server. */
import type { LoopOptions } from "../../src/agent/loop.ts";
import type { AgentEvent } from "../../src/agent/events.ts";
import { createApprovalGate } from "../../src/agent/approval.ts";
import { ChatCompletionsClient } from "../../src/llm/chat_completions.ts";
import type { Message } from "../../src/llm/types.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import type { Tool } from "../../src/tools/tool.ts";
import type { FakeModel } from "../support/fake_model_server.ts";

/** Echoes its `text` back (read-only). */
export const echoTool: Tool<{ text: string }> = {
  name: "echo",
  description: "Echoes text back.",
  parameters: {
    type: "object",
    properties: { text: { type: "string", description: "what to echo" } },
    required: ["text"],
    additionalProperties: false,
  },
  effect: "read",
  run: (args) => Promise.resolve(`echo: ${args.text}`),
};

/** Always throws (read-only). */
export const failingTool: Tool = {
  name: "explode",
  description: "Always fails.",
  parameters: { type: "object", properties: {} },
  effect: "read",
  run: () => Promise.reject(new Error("kaboom")),
};

/** The texts write_note was run with, in order; tests reset it. */
export const writeCalls: string[] = [];

/** Pretends to write (effect "write", so it needs approval); records its runs in `writeCalls`. */
export const writeTool: Tool<{ text: string }> = {
  name: "write_note",
  description: "Pretends to write.",
  parameters: {
    type: "object",
    properties: { text: { type: "string", description: "note" } },
    required: ["text"],
  },
  effect: "write",
  run: (args) => {
    writeCalls.push(args.text);
    return Promise.resolve("written");
  },
};

/** Blocks until the task is cancelled, so a test can cancel mid-tool. */
export const waitTool: Tool = {
  name: "wait_forever",
  description: "Waits until cancelled.",
  parameters: { type: "object", properties: {} },
  effect: "read",
  run: (_args, ctx) =>
    new Promise((_resolve, reject) =>
      ctx.signal.addEventListener("abort", () => reject(new Error("stopped")))
    ),
};

/** Loop options against `model` with the fake tools, approval "all", fake time for retries; events collected. */
export function loopOptions(
  model: FakeModel,
  extra: Partial<LoopOptions> = {},
): LoopOptions & { events: AgentEvent[] } {
  const events: AgentEvent[] = [];
  return {
    client: new ChatCompletionsClient({ baseUrl: model.url, apiKey: "k" }),
    registry: createRegistry([echoTool, failingTool, writeTool, waitTool]),
    model: "fake",
    root: Deno.cwd(),
    approve: createApprovalGate("all"),
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
    events,
    // Fake time: retries never wait.
    retry: { sleep: () => Promise.resolve(), random: () => 0.5 },
    ...extra,
  };
}

/** A history holding only a short system prompt. */
export function system(): Message[] {
  return [{ role: "system", content: "test" }];
}
