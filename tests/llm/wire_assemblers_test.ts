/** Bad input to the Anthropic and Responses assemblers: each failure is a typed LlmError in one clear line. */
import { assert, assertEquals, assertMatch, assertStrictEquals, assertThrows } from "../support/assert.ts";
import { AnthropicAssembler } from "../../src/llm/_anthropic_assembler.ts";
import { ResponsesAssembler } from "../../src/llm/_responses_assembler.ts";
import { LlmError } from "../../src/llm/types.ts";

function fails(run: () => unknown, kind: LlmError["kind"], words: RegExp): void {
  assert(((error: unknown) => {
    assert(error instanceof LlmError, `expected an LlmError, got ${error}`);
    assertStrictEquals(error.kind, kind);
    assertMatch(error.message, words);
    assert(!error.message.includes("\n"), "one line");
    return true;
  })(assertThrows(run)));
}

const START = { type: "message_start", message: { model: "c", usage: { input_tokens: 1 } } };

Deno.test("AnthropicAssembler refuses data that is not JSON, naming the source", () => {
  const assembler = new AnthropicAssembler({ source: "http://x" });
  fails(
    () => assembler.push({ event: "message_start", data: "{oops" }),
    "bad_response",
    /^http:\/\/x sent a stream event that is not JSON/,
  );
  fails(() => assembler.pushEvent([1]), "bad_response", /not a JSON object/);
});

Deno.test("AnthropicAssembler refuses a delta for a block that never started, or a bad index", () => {
  const assembler = new AnthropicAssembler();
  assembler.pushEvent(START);
  const delta = { type: "text_delta", text: "x" };
  fails(
    () => assembler.pushEvent({ type: "content_block_delta", index: 3, delta }),
    "bad_response",
    /content block 3, which never started/,
  );
  fails(
    () => assembler.pushEvent({ type: "content_block_start", index: -1, content_block: { type: "text" } }),
    "bad_response",
    /invalid index -1/,
  );
});

Deno.test("AnthropicAssembler refuses a tool_use block without an id or a name", () => {
  const assembler = new AnthropicAssembler();
  assembler.pushEvent(START);
  assembler.pushEvent({
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", name: "x", input: {} },
  });
  assembler.pushEvent({ type: "message_delta", delta: { stop_reason: "tool_use" } });
  fails(() => assembler.finish(), "bad_response", /tool_use block without an id or a name/);
});

Deno.test("AnthropicAssembler reports a stream without a stop_reason as interrupted, keeping partialOutput", () => {
  const assembler = new AnthropicAssembler();
  assembler.pushEvent(START);
  assembler.pushEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "Hi" } });
  assert(
    ((e: unknown) => e instanceof LlmError && e.kind === "interrupted" && e.partialOutput)(
      assertThrows(() => assembler.finish()),
    ),
  );
});

Deno.test("AnthropicAssembler: an error event without details still says what it is", () => {
  fails(() => new AnthropicAssembler().pushEvent({ type: "error" }), "stream_error", /no details given/);
});

Deno.test("ResponsesAssembler refuses data that is not JSON and a call without a call_id", () => {
  fails(
    () => new ResponsesAssembler({ source: "S" }).push({ event: "x", data: "nope" }),
    "bad_response",
    /^S sent a stream event that is not JSON/,
  );
  const assembler = new ResponsesAssembler();
  assembler.pushEvent({
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "function_call", name: "f" },
  });
  assembler.pushEvent({ type: "response.completed", response: {} });
  fails(() => assembler.finish(), "bad_response", /function_call item without a call_id or a name/);
});

Deno.test("ResponsesAssembler: a failed response without details, and nothing after the terminal event", () => {
  fails(
    () => new ResponsesAssembler().pushEvent({ type: "response.failed", response: {} }),
    "stream_error",
    /the response failed without details/,
  );
  const assembler = new ResponsesAssembler();
  assembler.pushEvent({ type: "response.output_text.delta", output_index: 0, delta: "A" });
  assembler.pushEvent({ type: "response.completed", response: {} });
  assertEquals(
    assembler.pushEvent({ type: "response.output_text.delta", output_index: 0, delta: "B" }),
    [],
  );
  assertStrictEquals(assembler.finish().text, "A");
});

Deno.test("ResponsesAssembler leaves a 'parallel' call alone when its arguments are not the wrapper shape", () => {
  const assembler = new ResponsesAssembler();
  const item = { type: "function_call", call_id: "c", name: "parallel", arguments: '{"x":1}' };
  assembler.pushEvent({ type: "response.output_item.done", output_index: 0, item });
  assembler.pushEvent({ type: "response.completed", response: {} });
  assertEquals(assembler.finish().toolCalls, [{ id: "c", name: "parallel", arguments: '{"x":1}' }]);
});
