/** Shared pieces of the agent-loop tests: small fake tools and loop options against the fake model server. */
import type { LoopOptions } from "../../../src/agent/loop/loop_options.ts";
import type { AgentEvent } from "../../../src/agent/events.ts";
import { createApprovalGate } from "../../../src/agent/policy/approval.ts";
import { createClient } from "../../../src/llm/client.ts";
import { Conversation } from "../../../src/agent/log/conversation.ts";
import { createRegistry } from "../../../src/tools/registry.ts";
import type { CallInspection, Tool } from "../../../src/tools/tool.ts";
import type { FakeModel } from "../../support/fake_model_server.ts";

/** The inspection of a call that only reads. */
export function reads(summary: string): CallInspection {
  return { effect: "read", paths: [], summary };
}

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
  guidance: "echo: echo text back.",
  inspect: (args) => Promise.resolve(reads(args.text)),
  run: (args) => Promise.resolve(`echo: ${args.text}`),
};

/** Always throws (read-only). */
export const failingTool: Tool = {
  name: "explode",
  description: "Always fails.",
  parameters: { type: "object", properties: {} },
  guidance: "explode: always fails.",
  inspect: () => Promise.resolve(reads("")),
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
  guidance: "write_note: pretend to write.",
  inspect: (args) => Promise.resolve({ effect: "write", paths: ["notes.txt"], summary: args.text }),
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
  guidance: "wait_forever: wait until cancelled.",
  inspect: () => Promise.resolve(reads("")),
  run: (_args, ctx) =>
    new Promise((_resolve, reject) => {
      // An abort that came before the run started would never fire the listener: it must count too.
      if (ctx.signal.aborted) return reject(new Error("stopped"));
      ctx.signal.addEventListener("abort", () => reject(new Error("stopped")));
    }),
};

/** Loop options against `model` with the fake tools, approval "all", fake time for retries; events collected. */
export function loopOptions(
  model: FakeModel,
  extra: Partial<LoopOptions> = {},
): LoopOptions & { events: AgentEvent[] } {
  const events: AgentEvent[] = [];
  return {
    client: createClient({ api: "chat", baseUrl: model.url, apiKey: "k" }),
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

/** A new conversation with a short system prompt. */
export function system(): Conversation {
  return new Conversation({ systemPrompt: "test" });
}
