/**
 * Which language server speaks for a file: the known servers (found on PATH), and the `lsp` key of the
 * settings, which adds a server, replaces a known one or turns one (or all) off. A server the project's own
 * `.tern/settings.json` names, or one found inside the project (a `node_modules/.bin` on PATH), is the
 * project's program: it runs only once the project is trusted.
 */
import { extname } from "../../fs/path.ts";

/** One language server: how to start it and the files it checks. */
export interface ServerSpec {
  /** The settings' name for it, e.g. "typescript". */
  name: string;
  /** The program and its arguments, e.g. ["typescript-language-server", "--stdio"]. */
  command: string[];
  /** File extensions it checks, with the dot. */
  extensions: string[];
  /** Where it comes from: tern's table (found on PATH), the user's settings, or the project's. */
  source: "known" | "user" | "project";
  /** `initializationOptions` of its `initialize` request. */
  initializationOptions?: unknown;
  /** The network inside the sandbox (default off: a server checks files, it fetches nothing). */
  network?: boolean;
  /** Only for a root with one of these files (deno lsp for a Deno project). */
  markers?: string[];
}

const TS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** The servers tern looks for on PATH, in order of preference for an extension. */
export const KNOWN_SERVERS: readonly ServerSpec[] = [
  {
    name: "deno",
    command: ["deno", "lsp"],
    extensions: TS,
    source: "known",
    markers: ["deno.json", "deno.jsonc"],
    initializationOptions: { enable: true, lint: false },
  },
  { name: "typescript", command: ["typescript-language-server", "--stdio"], extensions: TS, source: "known" },
  {
    name: "python",
    command: ["pyright-langserver", "--stdio"],
    extensions: [".py", ".pyi"],
    source: "known",
  },
  { name: "go", command: ["gopls"], extensions: [".go"], source: "known" },
  { name: "rust", command: ["rust-analyzer"], extensions: [".rs"], source: "known" },
  {
    name: "c",
    command: ["clangd"],
    extensions: [".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh"],
    source: "known",
  },
];

/** The `languageId` of a file for `textDocument/didOpen`. */
export function languageId(path: string): string {
  const ext = extname(path).toLowerCase();
  const ids: Record<string, string> = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "typescriptreact",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascriptreact",
    ".py": "python",
    ".pyi": "python",
    ".go": "go",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
  };
  return ids[ext] ?? (/^\.(cc|cpp|cxx|hpp|hh)$/.test(ext) ? "cpp" : ext.slice(1));
}

/** What the `lsp` settings key says, read: the servers (the known ones changed by it) and what was wrong. */
export interface LspSettings {
  /** False when `"lsp": false` turned diagnostics off. */
  enabled: boolean;
  servers: ServerSpec[];
  problems: string[];
}

/**
 * The servers after the user's `lsp` key and then the project's (`project` only when it is trusted):
 * `"lsp": false` turns every server off, `"lsp": {"python": false}` one, and an entry
 * `{"command": [...], "extensions": [...]}` adds or replaces one.
 */
export function lspSettings(user: unknown, project?: unknown): LspSettings {
  const result: LspSettings = { enabled: true, servers: [...KNOWN_SERVERS], problems: [] };
  for (const [value, source] of [[user, "user"], [project, "project"]] as const) {
    if (value === undefined) continue;
    if (value === false) {
      result.enabled = false;
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      result.problems.push(`"lsp" should be false or an object of servers`);
      continue;
    }
    for (const [name, entry] of Object.entries(value)) apply(result, name, entry, source);
  }
  return result;
}

function apply(result: LspSettings, name: string, entry: unknown, source: "user" | "project"): void {
  const others = result.servers.filter((server) => server.name !== name);
  if (entry === false) return void (result.servers = others);
  const { command, extensions, network, initializationOptions } = (entry ?? {}) as Record<string, unknown>;
  const strings = (list: unknown) =>
    Array.isArray(list) && list.length > 0 && list.every((item) => typeof item === "string" && item !== "");
  if (!strings(command) || (extensions !== undefined && !strings(extensions))) {
    result.problems.push(
      `lsp.${name}: give "command": ["program", "arg", ...] and "extensions": [".ext", ...] (or false)`,
    );
    return;
  }
  const known = KNOWN_SERVERS.find((server) => server.name === name);
  const exts = (extensions as string[] | undefined)?.map((ext) => ext.startsWith(".") ? ext : `.${ext}`);
  if (exts === undefined && known === undefined) {
    result.problems.push(`lsp.${name}: "extensions" is required for a server tern does not know`);
    return;
  }
  // A bad entry leaves the known server in place; a good one replaces it, ahead of the others.
  result.servers = others;
  result.servers.unshift({
    name,
    command: command as string[],
    extensions: exts ?? known!.extensions,
    source,
    network: network === true,
    initializationOptions,
  });
}

/** The servers that could check `path`, in order of preference (the first one found runs). */
export function serversFor(servers: readonly ServerSpec[], path: string): ServerSpec[] {
  const ext = extname(path).toLowerCase();
  if (ext === "") return [];
  return servers.filter((server) => server.extensions.includes(ext));
}
