/**
 * The one gate for text that came from outside (the model, tools, MCP servers, session files, project
 * files): every screen write of such text passes `terminalSafe` first, so nothing it holds can move the
 * cursor, recolour or redraw the screen, or hide what is being approved.
 */

/**
 * Makes text safe to show in a terminal: control characters (ESC above all, which could redraw the screen
 * and hide what is being approved), a bare CR, and bidi overrides become visible placeholders. Tabs stay.
 */
export function terminalSafe(text: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␛ for ESC, ␍ for CR, ...
    if (code === 0x7f) return "␡";
    return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
  });
}
