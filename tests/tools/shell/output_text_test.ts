import { assertEquals } from "../../support/assert.ts";
import { OutputText } from "../../../src/tools/shell/output_text.ts";

/** Feeds `chunks` through one decoder; the text, and what it found. */
function decode(...chunks: number[][]): { text: string; bytes: number; binary: boolean } {
  const decoder = new OutputText();
  let text = chunks.map((chunk) => decoder.push(new Uint8Array(chunk))).join("");
  text += decoder.flush();
  return { text, bytes: decoder.bytes, binary: decoder.binary };
}

const utf8 = (text: string) => [...new TextEncoder().encode(text)];

Deno.test("OutputText passes UTF-8 through, characters cut between chunks included", () => {
  const bytes = utf8("hé €𝄞\n\t\r\x1b[0m");
  assertEquals(decode(...bytes.map((byte) => [byte])), {
    text: "hé €𝄞\n\t\r\x1b[0m",
    bytes: 18,
    binary: false,
  });
});

Deno.test("OutputText escapes NUL and bytes that are not UTF-8, and marks the output binary", () => {
  assertEquals(decode([0x7f, 0x45, 0x00, 0xff, 0x41], [0xc3]), {
    text: "\\x7fE\\x00\\xffA\\xc3",
    bytes: 6,
    binary: true,
  });
  // Overlong forms and surrogates are not UTF-8 either.
  assertEquals(decode([0xc0, 0xaf, 0xed, 0xa0, 0x80]).text, "\\xc0\\xaf\\xed\\xa0\\x80");
});

Deno.test("OutputText escapes other control characters without calling the output binary", () => {
  assertEquals(decode(utf8("ding\x06\x08!")), { text: "ding\\x06\\x08!", bytes: 7, binary: false });
});

Deno.test("OutputText passes BEL through, so the cleaner sees where an OSC sequence ends", () => {
  assertEquals(decode(utf8("C\x1b]52;c;Zm9v\x07D")), {
    text: "C\x1b]52;c;Zm9v\x07D",
    bytes: 14,
    binary: false,
  });
});
