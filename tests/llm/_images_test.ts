import { assertEquals, assertStrictEquals } from "../support/assert.ts";
import { textOnlyMessages } from "../../src/llm/_images.ts";
import { buildRequestBody } from "../../src/llm/chat_completions.ts";
import { buildAnthropicBody } from "../../src/llm/anthropic_messages.ts";
import { buildResponsesBody } from "../../src/llm/openai_responses.ts";
import type { ImagePart, Message } from "../../src/llm/types.ts";

const SHOT: ImagePart = { mediaType: "image/png", data: "iVBORw0K", name: "shot.png" };
const URL = "data:image/png;base64,iVBORw0K";

/** A prompt with an image, then one answer calling two tools, the first of which returned an image. */
const HISTORY: Message[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "look", images: [SHOT] },
  {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "a", name: "read_file", arguments: "{}" }, {
      id: "b",
      name: "list_dir",
      arguments: "{}",
    }],
  },
  {
    role: "tool",
    toolCallId: "a",
    name: "read_file",
    content: "shot.png: PNG",
    isError: false,
    images: [SHOT],
  },
  { role: "tool", toolCallId: "b", name: "list_dir", content: "x", isError: false },
  { role: "assistant", content: "done" },
];
const CAPTION = "[the image shot.png returned by read_file (call a)]";
const request = (messages: Message[]) => ({ model: "m", messages, tools: [] });

Deno.test("chat completions: a prompt's image is an image_url part; a result's follows the run of results", () => {
  const body = buildRequestBody(request(HISTORY), "never");
  assertEquals((body.messages as unknown[]).slice(1), [
    {
      role: "user",
      content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: URL } }],
    },
    {
      role: "assistant",
      tool_calls: [
        { id: "a", type: "function", function: { name: "read_file", arguments: "{}" } },
        { id: "b", type: "function", function: { name: "list_dir", arguments: "{}" } },
      ],
    },
    { role: "tool", tool_call_id: "a", content: "shot.png: PNG" },
    { role: "tool", tool_call_id: "b", content: "x" },
    {
      role: "user",
      content: [{ type: "text", text: CAPTION }, { type: "image_url", image_url: { url: URL } }],
    },
    { role: "assistant", content: "done" },
  ]);
});

Deno.test("Responses: input_image parts; a result's image in a user message after the outputs", () => {
  const input = buildResponsesBody(request(HISTORY)).input as unknown[];
  assertEquals(input.slice(1), [
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "look" }, { type: "input_image", image_url: URL }],
    },
    { type: "function_call", call_id: "a", name: "read_file", arguments: "{}" },
    { type: "function_call", call_id: "b", name: "list_dir", arguments: "{}" },
    { type: "function_call_output", call_id: "a", output: "shot.png: PNG" },
    { type: "function_call_output", call_id: "b", output: "x" },
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: CAPTION }, { type: "input_image", image_url: URL }],
    },
    { type: "message", role: "assistant", content: "done" },
  ]);
});

Deno.test("Anthropic: an image block before the prompt's text, and inside the tool_result after its text", () => {
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0K" } };
  const body = buildAnthropicBody(request(HISTORY.slice(0, 5)));
  assertEquals(body.messages, [
    { role: "user", content: [image, { type: "text", text: "look" }] },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "a", name: "read_file", input: {} },
        { type: "tool_use", id: "b", name: "list_dir", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "a", content: [{ type: "text", text: "shot.png: PNG" }, image] },
        { type: "tool_result", tool_use_id: "b", content: "x", cache_control: { type: "ephemeral" } },
      ],
    },
  ]);
});

Deno.test("textOnlyMessages() puts a line where each image was and shares messages without images", () => {
  const out = textOnlyMessages(HISTORY);
  assertEquals(out[1], {
    role: "user",
    content: "look\n[image shot.png not sent: this model reads text only]",
  });
  assertEquals(out[3], {
    role: "tool",
    toolCallId: "a",
    name: "read_file",
    content: "shot.png: PNG\n[image shot.png not sent: this model reads text only]",
    isError: false,
  });
  assertStrictEquals(out[4], HISTORY[4]);
  assertStrictEquals(out[0], HISTORY[0]);
});
