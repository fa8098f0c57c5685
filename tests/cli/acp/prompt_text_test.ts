import { assertEquals, assertThrows } from "../../support/assert.ts";
import { PromptContentError, promptText } from "../../../src/cli/acp/prompt_text.ts";

Deno.test("promptText() joins text, resource links and embedded text resources into one message", () => {
  assertEquals(
    promptText([
      { type: "text", text: "Explain this function" },
      { type: "resource_link", name: "a.ts", uri: "file:///p/a.ts" },
      { type: "resource", resource: { uri: "file:///p/b.ts", text: "export const b = 1;" } },
      { type: "resource", resource: { uri: "file:///p/logo.png", blob: "AAAA" } },
    ]),
    "Explain this function\n\nLinked: a.ts (file:///p/a.ts)\n\n" +
      '<context uri="file:///p/b.ts">\nexport const b = 1;\n</context>\n\n' +
      "(attached binary resource file:///p/logo.png left out: tern reads text only)",
  );
});

Deno.test("promptText() refuses images, audio and an empty prompt, saying what it takes", () => {
  assertThrows(
    () => promptText([{ type: "text", text: "see" }, { type: "audio", data: "AA", mimeType: "audio/wav" }]),
    PromptContentError,
    "prompt block 2 is audio",
  );
  assertThrows(() => promptText([{ type: "text", text: "  " }]), PromptContentError, "the prompt is empty");
});
