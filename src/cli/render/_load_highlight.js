// @ts-self-types="./_load_highlight.d.ts"
// A JavaScript file with its own declaration: highlight.js's types reference the DOM lib, which would
// break Deno's stream types everywhere if the type checker saw them.
/** Loads highlight.js with its common languages. */
export async function loadHighlightJs() {
  return (await import("highlight.js/lib/common")).default;
}
