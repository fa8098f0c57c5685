/**
 * The project's `.mcp.json` (the format other agents read): `{"mcpServers": {"name": {...}}}`, each entry
 * either a stdio server (`command`, `args`, `env`) or a streamable HTTP one (`type: "http"`, `url`,
 * `headers`). tern adds two optional stdio fields: `sandbox` (`false` runs the server outside bubblewrap,
 * `"strict"` gives it a private HOME and no network even when the project is trusted) and `network` (true or
 * false: the network inside the sandbox; unset, a trusted project's servers have it and others do not). The
 * file is untrusted input: every field is checked here.
 */

/** Where the project's MCP servers are configured, relative to the root. */
export const MCP_CONFIG_FILE = ".mcp.json";

/** A server started as a child process speaking JSON-RPC over stdin/stdout. */
export interface StdioServerConfig {
  name: string;
  type: "stdio";
  command: string;
  args: string[];
  /** Variables passed to the server besides the clean basics (PATH, HOME, ...), `${VAR}` already expanded. */
  env: Record<string, string>;
  /** False when the entry opts out of the shell sandbox; "strict" when it asks for the strict one. */
  sandbox: boolean | "strict";
  /** The network inside the sandbox, as the entry says; undefined: the default for the server's trust. */
  network?: boolean;
}

/** A server reached over streamable HTTP. */
export interface HttpServerConfig {
  name: string;
  type: "http";
  url: string;
  headers: Record<string, string>;
}

/** One configured server. */
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** What `.mcp.json` holds: the usable servers, what was wrong with the others, and the file's exact text. */
export interface McpConfigFile {
  servers: McpServerConfig[];
  /** One line per entry that was skipped, e.g. `server "x": "command" must be a string`. */
  problems: string[];
  /** The file's text, as read (a trust decision covers exactly these bytes). */
  text: string;
  /** Lines about variables not passed to a server (tern's own keys). */
  notes?: string[];
}

/** Server names become part of tool names (`mcp__<server>__<tool>`), so they stay short and plain. */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,24}$/;

/**
 * Variables `${VAR}` may not take from tern's environment (tern's own API keys), except those the user's
 * own settings pass to a named server (`granted`).
 */
export interface WithheldVariables {
  names: readonly string[];
  granted?: Record<string, readonly string[]>;
}

/** Reads `.mcp.json` in `root`; undefined when there is none. Throws only for unreadable files. */
export async function loadMcpConfig(
  root: string,
  env: Record<string, string>,
  withheld?: WithheldVariables,
): Promise<McpConfigFile | undefined> {
  let text: string;
  try {
    const info = await Deno.lstat(`${root}/${MCP_CONFIG_FILE}`);
    if (!info.isFile) {
      return { servers: [], problems: [`${MCP_CONFIG_FILE} is not a regular file`], text: "" };
    }
    if (info.size > 1_000_000) {
      return { servers: [], problems: [`${MCP_CONFIG_FILE} is too large`], text: "" };
    }
    text = await Deno.readTextFile(`${root}/${MCP_CONFIG_FILE}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  return { ...parseMcpConfig(text, env, withheld), text };
}

/**
 * Parses the text of `.mcp.json`; pure. Entries with problems are skipped and described; a withheld
 * variable expands to nothing, and a problem line says so.
 */
export function parseMcpConfig(
  text: string,
  env: Record<string, string>,
  withheld?: WithheldVariables,
): { servers: McpServerConfig[]; problems: string[]; notes: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      servers: [],
      problems: [`${MCP_CONFIG_FILE} is not valid JSON (${(error as Error).message})`],
      notes: [],
    };
  }
  const entries = isRecord(json) && isRecord(json.mcpServers) ? json.mcpServers : undefined;
  if (entries === undefined) {
    return { servers: [], problems: [`${MCP_CONFIG_FILE} has no "mcpServers" object`], notes: [] };
  }
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  const notes: string[] = [];
  for (const [name, entry] of Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const granted = withheld?.granted?.[name] ?? [];
    const kept = withheld?.names.filter((variable) => !granted.includes(variable)) ?? [];
    const used = referencedVariables(JSON.stringify(entry) ?? "").filter((variable) =>
      kept.includes(variable)
    );
    if (used.length > 0) {
      notes.push(
        `server "${name.slice(0, 40)}": not given ${
          used.join(", ")
        } (tern's own API key variables); to pass ` +
          `one, name it under "mcp": {"passEnv": {"${
            name.slice(0, 40)
          }": [...]}} in .tern/local/settings.json`,
      );
    }
    const visible = used.length === 0 ? env : Object.fromEntries(
      Object.entries(env).filter(([variable]) => !used.includes(variable)),
    );
    const parsed = parseEntry(name, entry, visible);
    if (typeof parsed === "string") problems.push(`server "${name.slice(0, 40)}": ${parsed}`);
    else servers.push(parsed);
  }
  return { servers, problems, notes };
}

function parseEntry(name: string, entry: unknown, env: Record<string, string>): McpServerConfig | string {
  if (!SERVER_NAME.test(name)) return "the name must be 1-24 letters, digits, '_' or '-'";
  if (!isRecord(entry)) return "the entry must be an object";
  const type = entry.type ?? (entry.url !== undefined ? "http" : "stdio");
  if (type === "http" || type === "streamable-http") {
    if (typeof entry.url !== "string") return '"url" must be a string';
    const url = expand(entry.url, env);
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return '"url" must be an http or https URL';
    const headers = stringRecord(entry.headers, "headers", env);
    if (typeof headers === "string") return headers;
    return { name, type: "http", url, headers };
  }
  if (type !== "stdio") return `type "${String(type).slice(0, 20)}" is not supported (use stdio or http)`;
  if (typeof entry.command !== "string" || entry.command.trim() === "") return '"command" must be a string';
  const args = entry.args ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
    return '"args" must be an array of strings';
  }
  const vars = stringRecord(entry.env, "env", env);
  if (typeof vars === "string") return vars;
  if (entry.sandbox !== undefined && typeof entry.sandbox !== "boolean" && entry.sandbox !== "strict") {
    return '"sandbox" must be true, false or "strict"';
  }
  if (entry.network !== undefined && typeof entry.network !== "boolean") {
    return '"network" must be true or false';
  }
  return {
    name,
    type: "stdio",
    command: expand(entry.command, env),
    args: args.map((arg) => expand(arg, env)),
    env: vars,
    sandbox: entry.sandbox === "strict" ? "strict" : entry.sandbox !== false,
    ...(typeof entry.network === "boolean" ? { network: entry.network } : {}),
  };
}

/** A `{string: string}` field with `${VAR}` expanded, or what is wrong with it. */
function stringRecord(
  value: unknown,
  field: string,
  env: Record<string, string>,
): Record<string, string> | string {
  if (value === undefined) return {};
  if (!isRecord(value) || !Object.values(value).every((item) => typeof item === "string")) {
    return `"${field}" must be an object of strings`;
  }
  return Object.fromEntries(
    Object.entries(value as Record<string, string>).map(([k, v]) => [k, expand(v, env)]),
  );
}

/** Expands `${VAR}` and `${VAR:-default}` from tern's environment, as other agents do. */
export function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name, fallback) => {
    return env[name] ?? fallback ?? "";
  });
}

/** The variables a config text takes from tern's environment, for the trust prompt. */
export function referencedVariables(text: string): string[] {
  const names = [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]);
  return [...new Set(names)].sort();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
