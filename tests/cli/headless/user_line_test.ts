/** stream-json user lines in tern's shape and in Claude Code's SDK shape, and every bad one refused. */
import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { userLine } from "../../../src/cli/headless/user_line.ts";

const PNG = "iVBORw0KGgo="; // 8 bytes, base64

Deno.test("userLine() takes tern's text and Claude Code's message with string or block content", () => {
  assertEquals(userLine({ type: "user", text: "hi" }), { text: "hi" });
  assertEquals(userLine({ type: "user", message: { role: "user", content: "hi" } }), { text: "hi" });
  const blocks = [
    { type: "text", text: "what is this?" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    { type: "text", text: "be brief" },
  ];
  assertEquals(userLine({ type: "user", message: { role: "user", content: blocks } }), {
    text: "what is this?\n\nbe brief",
    images: [{ mediaType: "image/png", data: PNG, name: "stdin image 1" }],
  });
});

Deno.test("userLine() refuses each bad message with what to send", () => {
  const bad: [unknown, string][] = [
    [{ text: "" }, 'a user message needs a non-empty "text"'],
    [{ message: "hi" }, '"message" must be an object'],
    [{ message: { role: "assistant", content: "x" } }, '"message.role" must be "user"'],
    [{ message: { content: "  " } }, '"message.content" is empty'],
    [{ message: { content: 7 } }, "must be a string or a list of content blocks"],
    [{ message: { content: [] } }, "holds no text and no image"],
    [
      { message: { content: [{ type: "tool_result", content: "x" }] } },
      'message.content[0]: a block of type "tool_result"',
    ],
    [{ message: { content: [{ type: "text" }] } }, 'a text block needs a "text" string'],
    [
      { message: { content: [{ type: "image", source: { type: "url", url: "http://x" } }] } },
      '"type": "base64"',
    ],
    [{
      message: {
        content: [{ type: "image", source: { type: "base64", media_type: "image/bmp", data: PNG } }],
      },
    }, "media_type must be one of"],
    [{
      message: {
        content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "no!" } }],
      },
    }, '"data" is not base64'],
  ];
  for (const [line, words] of bad) {
    const problem = userLine({ type: "user", ...line as object });
    assertEquals(typeof problem, "string", JSON.stringify(line));
    assertStringIncludes(problem as string, words);
  }
  const huge = "A".repeat(8 * 1024 * 1024);
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: huge } };
  assertStringIncludes(
    userLine({ message: { content: [image] } }) as string,
    "images over 5 MB are not sent",
  );
});
