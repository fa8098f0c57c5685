/**
 * The real language servers the diagnostics tests run: typescript-language-server (with typescript) and
 * pyright, installed from npm by `.ci/run` under ~/.cache/tern-ci/lsp. A test that needs one is skipped where
 * the install failed, and its name says so.
 */
import { whyMissing } from "./requires.ts";

const HOME = Deno.env.get("HOME") ?? "/root";
/** Where `.ci/run` installs the servers' bins. */
export const LSP_BIN = `${HOME}/.cache/tern-ci/lsp/node_modules/.bin`;

function whyNoServer(name: string): string | null {
  try {
    Deno.statSync(`${LSP_BIN}/${name}`);
    return null;
  } catch {
    return `${name} is not installed under ~/.cache/tern-ci/lsp (.ci/run installs it)`;
  }
}

/** `Deno.test(name, fn)` when `server` is installed (and bubblewrap works, for `sandboxed`), else a skip. */
export function serverTest(name: string, server: string, sandboxed: boolean, fn: () => Promise<void>): void {
  const missing = [whyNoServer(server), sandboxed ? whyMissing("bwrap") : null].filter((why) => why !== null);
  if (missing.length > 0) {
    Deno.test({ name: `${name} (skipped: ${missing.join("; ")})`, ignore: true, fn: () => {} });
  } else Deno.test(name, fn);
}
