/** One conversation moving between wires (/model): what only one wire can read is dropped, pairing holds. */
import { assertEquals, assertMatch, assertNotMatch, assertStrictEquals } from "../support/assert.ts";
import { createClient } from "../../src/llm/client.ts";
import type { AssistantTurn, Message, WireApi } from "../../src/llm/types.ts";
import { type FakeModel, startFakeModel } from "../support/fake_model_server.ts";

const TOOLS = [{ name: "read_file", description: "Read", parameters: { type: "object" } }];

async function ask(model: FakeModel, api: WireApi, messages: Message[]): Promise<AssistantTurn> {
  const client = createClient({ api, baseUrl: api === "anthropic" ? model.root : model.url, apiKey: "k" });
  return await client.stream({ model: "m", messages, tools: TOOLS }, new AbortController().signal, () => {});
}

function keep(history: Message[], turn: AssistantTurn, result: string): void {
  const { text: content, reasoning, toolCalls, providerData } = turn;
  history.push({ role: "assistant", content, reasoning, toolCalls, ...(providerData && { providerData }) });
  for (const call of toolCalls) {
    history.push({ role: "tool", toolCallId: call.id, name: call.name, content: result, isError: false });
  }
}

Deno.test("a conversation goes anthropic → responses → chat → anthropic, each wire's checks passing", async () => {
  const call = (n: number) => ({
    reasoning: `think ${n}`,
    toolCalls: [{ name: "read_file", arguments: `{"n":${n}}` }],
  });
  await using model = startFakeModel([call(0), call(1), call(2), { text: "done" }]);
  const history: Message[] = [{ role: "system", content: "sys" }, { role: "user", content: "go" }];
  const order: WireApi[] = ["anthropic", "responses", "chat", "anthropic"];
  for (const [n, api] of order.entries()) {
    const turn = await ask(model, api, history);
    if (n < 3) keep(history, turn, `result ${n}`);
    else assertStrictEquals(turn.text, "done");
  }
  assertEquals(model.wires, order);
  // The last Anthropic request carries its own signed thinking again, and nothing from Responses.
  const last = JSON.stringify(model.requests[3]);
  assertMatch(last, /"signature":"sig-0-7"/);
  assertNotMatch(last, /encrypted_content/);
  // Chat never sees another wire's state.
  assertNotMatch(JSON.stringify(model.requests[2]), /signature|encrypted_content/);
});
