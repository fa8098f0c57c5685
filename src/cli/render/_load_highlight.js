// @ts-self-types="./_load_highlight.d.ts"
// A JavaScript file with its own declaration: highlight.js's types reference the DOM lib, which would
// break Deno's stream types everywhere if the type checker saw them.
import { npmPackage } from "../../npm.ts";

/** Loads highlight.js with its common languages. */
export async function loadHighlightJs() {
  return (await npmPackage("highlight.js/lib/common")).default;
}
