/**
 * tern's npm packages, each loaded by the module that uses it, through `npmPackage(name)` and never through
 * an import naming it: before main.ts runs, Deno resolves every npm package its module graph can reach
 * (static imports and `import("literal")` alike, however deep) and, on an empty cache, tries to download
 * them all, so one such import anywhere under src/ makes `tern --version` wait on the npm registry
 * (issue 21 §5.14). Types come with `import type`, which Deno leaves out of the graph it runs.
 * tests/main_offline_test.ts fails when a package is imported any other way.
 */
// @ts-types="@types/picomatch"
import type picomatch from "picomatch";

/** What each package gives its users: its own types, or none where they would pull in the DOM library. */
interface Packages {
  "@agentclientprotocol/sdk": typeof import("@agentclientprotocol/sdk");
  "@inquirer/prompts": typeof import("@inquirer/prompts");
  "@joplin/turndown-plugin-gfm": typeof import("@joplin/turndown-plugin-gfm");
  "@modelcontextprotocol/sdk/client/index.js": typeof import("@modelcontextprotocol/sdk/client/index.js");
  "@modelcontextprotocol/sdk/client/stdio.js": typeof import("@modelcontextprotocol/sdk/client/stdio.js");
  "@modelcontextprotocol/sdk/client/streamableHttp.js":
    typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  diff: typeof import("diff");
  ignore: { default: typeof import("ignore") }; // CommonJS: module.exports is the default
  marked: typeof import("marked");
  picomatch: { default: typeof picomatch };
  turndown: { default: typeof import("turndown") };
  // Used from JavaScript files with declarations of their own (their types reference the DOM library).
  "@mozilla/readability": Record<string, unknown>;
  "highlight.js/lib/common": Record<string, unknown>;
  linkedom: Record<string, unknown>;
}

/** The package's module; loaded once per process (Deno caches the module), downloaded on first use. */
export async function npmPackage<Name extends keyof Packages>(name: Name): Promise<Packages[Name]> {
  const specifier: string = name; // a variable: Deno does not see it before tern runs
  try {
    return await import(specifier);
  } catch (error) {
    throw new PackageError(name, error);
  }
}

/** A package that could not be loaded, said in one line (and why, when Deno could not download it). */
export class PackageError extends Error {
  override name = "PackageError";

  constructor(name: string, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const download = /Failed caching npm package|error sending request|--cached-only/.test(message);
    const hint = download
      ? ": Deno downloads tern's npm packages on first use, and the npm registry could not be reached"
      : "";
    super(`cannot load the npm package ${name} (${oneLine(message)})${hint}`, { cause });
  }
}

/**
 * Deno's message in one line: its first line and the innermost cause it lists ("    0: …"), without
 * terminal codes or the stack location it appends.
 */
function oneLine(message: string): string {
  // deno-lint-ignore no-control-regex -- Deno colours the location it appends
  const lines = message.replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((line) => line.trim()).filter(Boolean);
  const cause = lines.find((line) => /^0: /.test(line))?.slice(3);
  const text = cause === undefined ? lines[0] ?? "" : `${lines[0]}: ${cause}`;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
