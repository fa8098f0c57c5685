/** tern's own styleText against node:util's, which it replaced: the same bytes for nested styles too. */
import { styleText as nodeStyleText } from "node:util";
import { assert, assertEquals } from "../../support/assert.ts";
import { type Style, styleText } from "../../../src/cli/render/style.ts";

const NAMES = [
  "bold",
  "dim",
  "italic",
  "underline",
  "inverse",
  "strikethrough",
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "gray",
] as const;

Deno.test("styleText() writes what node:util's styleText writes, nested styles included", () => {
  let state = 7;
  // xorshift32: exact in 32-bit integers, unlike a multiply that overflows a double's 53 bits.
  const next = (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  let nested = 0;
  for (let round = 0; round < 2_000; round++) {
    // Text with other styles already inside it, as the markdown and diff views make it.
    let text = ["a", "", "x\ny"][next(3)];
    for (let depth = next(4); depth > 0; depth--) {
      const inner = NAMES[next(NAMES.length)];
      text = `${text}${styleText(inner, "in")}${["", "b"][next(2)]}`;
      nested++;
    }
    const style: Style = next(2) === 0
      ? NAMES[next(NAMES.length)]
      : Array.from({ length: 1 + next(3) }, () => NAMES[next(NAMES.length)]);
    assertEquals(
      styleText(style, text),
      nodeStyleText(style, text, { validateStream: false }),
      JSON.stringify([style, text]),
    );
  }
  assert(nested > 1_000, "the generator nested styles");
});
