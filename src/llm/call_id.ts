/**
 * Tool-call ids tern makes itself (a server that sends none, a repeated one): random, so that nothing that
 * reads tern's events (an approval answer sent ahead on stdin, say) can guess the id of a call not yet made.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `prefix` and 24 random letters and digits (143 bits), like OpenAI's own `call_…` ids. */
export function randomCallId(prefix = "call_"): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  // 256 is 4 × 62 + 8: the slight bias toward the first 8 letters leaves over 140 bits of guessing.
  return prefix + Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("");
}
