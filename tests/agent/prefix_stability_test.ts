/**
 * Prefix stability: across the requests of one conversation, everything but the growing message list
 * (system prompt, tools, settings) serialises to the same bytes, and request N+1's messages start with
 * exactly request N's, so a provider's prompt cache always hits. Checked on every wire in WIRES.
 */
import { assertEquals } from "../support/assert.ts";
import { runTask } from "../../src/agent/loop/loop.ts";
import { systemPrompt } from "../../src/agent/prompt.ts";
import { Conversation } from "../../src/agent/log/conversation.ts";
import { chatWire } from "../../src/llm/chat_completions.ts";
import { anthropicMessagesWire } from "../../src/llm/anthropic_messages.ts";
import { openaiResponsesWire } from "../../src/llm/openai_responses.ts";
import type { ChatRequest, LlmClient } from "../../src/llm/types.ts";
import type { Wire } from "../../src/llm/wire.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createRegistry } from "../../src/tools/registry.ts";
import { tempProject } from "../support/temp_project.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { loopOptions } from "./loop/_loop_fixtures.ts";

/**
 * A wire and the body key of its growing list (`messages`, or `input` for Responses); one line per wire.
 * Anthropic's cache breakpoint rides on the latest message, so it moves by design: it is not content, and
 * is left out of the comparison (`moving`).
 */
const WIRES: { wire: Wire; list: string; moving?: string }[] = [
  { wire: chatWire(), list: "messages" },
  { wire: openaiResponsesWire, list: "input" },
  { wire: anthropicMessagesWire, list: "messages", moving: "cache_control" },
];

/** `value` as JSON without the key `moving` at any depth. */
function withoutKey(value: unknown, moving?: string): string {
  return JSON.stringify(value, (key, inner) => (moving !== undefined && key === moving ? undefined : inner));
}

/** Records each request the loop makes, then passes it on. */
function recording(client: LlmClient, requests: ChatRequest[]): LlmClient {
  return {
    stream: (request, signal, onEvent) => {
      requests.push(structuredClone(request));
      return client.stream(request, signal, onEvent);
    },
    requestBytes: (request) => client.requestBytes(request),
  };
}

/** The requests of a two-task conversation with reads in parallel, a command, an error, an edit, reasoning. */
async function conversationRequests(): Promise<ChatRequest[]> {
  await using project = await tempProject({ "a.txt": "one\ntwo\n" });
  const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
  await using model = await startFakeModel([
    { reasoning: "Look first.", toolCalls: [call("read_file", { path: "a.txt" }), call("list_dir", {})] },
    { toolCalls: [call("execute_command", { command: "echo hi" })] },
    { toolCalls: [call("read_file", { path: "missing.txt" })] },
    { text: "Editing.", toolCalls: [call("edit_file", { path: "a.txt", old_text: "two", new_text: "2" })] },
    { text: "Done." },
    { toolCalls: [call("grep_code", { pattern: "one" })] },
    { text: "Found it." },
  ]);
  const registry = createRegistry(builtinTools());
  const conversation = new Conversation({ systemPrompt: systemPrompt(project.root, registry.tools()) });
  const requests: ChatRequest[] = [];
  const options = loopOptions(model, { registry, root: project.root });
  options.client = recording(options.client, requests);
  assertEquals((await runTask(conversation, "edit a.txt", options)).exitReason, "done");
  assertEquals((await runTask(conversation, "now find one", options)).exitReason, "done");
  return requests;
}

Deno.test("every wire's requests keep a byte-identical prefix across one conversation", async () => {
  const requests = await conversationRequests();
  assertEquals(requests.length, 7);
  for (const { wire, list, moving } of WIRES) {
    const bodies = requests.map((request) => wire.buildRequest(request, { apiKey: "k" }).body) as Record<
      string,
      unknown
    >[];
    const rest = bodies.map((body) => JSON.stringify({ ...body, [list]: undefined }));
    const items = bodies.map((body) => (body[list] as unknown[]).map((item) => withoutKey(item, moving)));
    for (let n = 1; n < bodies.length; n++) {
      assertEquals(rest[n], rest[0], `${wire.api}: request ${n + 1}'s system prompt, tools or settings`);
      assertEquals(
        items[n].slice(0, items[n - 1].length),
        items[n - 1],
        `${wire.api}: request ${n + 1}'s ${list} do not start with request ${n}'s`,
      );
      assertEquals(items[n].length > items[n - 1].length, true, `${wire.api}: request ${n + 1} adds nothing`);
    }
  }
});
