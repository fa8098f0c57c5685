/**
 * How a stdio MCP server is confined, decided once per server, and the words every front end shows for it.
 * A server the user trusted (their own project's `.mcp.json`) runs as its README expects: the user's HOME
 * (npx and uvx keep their caches there) and the network, inside the project-write sandbox (the system
 * read-only, HOME's startup files read-only, the project's protected files read-only). A server of a project
 * the user has not trusted (started with `--trust-project-mcp` alone) gets the strict sandbox commands get: a
 * private HOME and no network. The entry's `"sandbox"` and `"network"` keys change either.
 */
import type { SandboxMode } from "../../config/settings.ts";
import type { StdioServerConfig } from "./config.ts";

/** Where one stdio server runs. */
export interface ServerSandbox {
  /** `project`: the project and your HOME writable; `strict`: the project only, a private HOME; `none`. */
  kind: "project" | "strict" | "none";
  network: boolean;
  /** Why it runs unconfined (the entry, `--sandbox off`, bubblewrap missing). */
  reason?: string;
}

/** The facts `serverSandbox` decides from. */
export interface SandboxFacts {
  /** tern's `--sandbox`. */
  mode: SandboxMode;
  /** bubblewrap works here (undefined when it was not probed: the mode or the entry turned it off). */
  available?: boolean;
  /** Why bubblewrap does not work here. */
  unavailable?: string;
  /** The server comes from the user (their own settings, or a project they trusted). */
  trusted: boolean;
}

/** How `config` runs; a string when it may not run at all (`--sandbox required` without bubblewrap). */
export function serverSandbox(config: StdioServerConfig, facts: SandboxFacts): ServerSandbox | string {
  if (config.sandbox === false) return { kind: "none", network: true, reason: '"sandbox": false' };
  if (facts.mode === "off") return { kind: "none", network: true, reason: "--sandbox off" };
  if (facts.available !== true) {
    if (facts.mode === "required") return `--sandbox required, but ${facts.unavailable}`;
    return { kind: "none", network: true, reason: facts.unavailable ?? "no sandbox here" };
  }
  const strict = !facts.trusted || config.sandbox === "strict";
  return { kind: strict ? "strict" : "project", network: config.network ?? !strict };
}

/** The sandbox in a few words, e.g. "sandboxed: writes only in the project and your HOME, network on". */
export function sandboxWords(sandbox: ServerSandbox): string {
  if (sandbox.kind === "none") {
    return `NOT sandboxed${sandbox.reason ? ` (${sandbox.reason})` : ""}: full access to files and network`;
  }
  return `${sandbox.kind === "strict" ? "strict sandbox" : "sandboxed"}: ${confines(sandbox)}`;
}

function confines(sandbox: ServerSandbox): string {
  const network = sandbox.network ? "network on" : "no network";
  if (sandbox.kind === "project") return `writes only in the project and your HOME, ${network}`;
  return `writes only in the project, a private HOME, ${network}`;
}

/** Programs that fetch the server they run: they need the network and a writable cache in HOME. */
const FETCHERS = /^(npx|uvx|bunx|pnpx|pipx)$/;

/**
 * What to change when a server failed to start: the keys of its entry in `.mcp.json` (and trusting the
 * project, for one that is not), worded for the sandbox it ran in.
 */
export function startHint(config: StdioServerConfig, sandbox: ServerSandbox, trusted: boolean): string {
  if (sandbox.kind === "none") return `it ran ${sandboxWords(sandbox)}; check its command and arguments`;
  const program = config.command.slice(config.command.lastIndexOf("/") + 1);
  const ran = `it ran in the ${sandbox.kind === "strict" ? "strict sandbox" : "sandbox"} (${
    confines(sandbox)
  })`;
  const fetcher = FETCHERS.test(program) && (sandbox.kind === "strict" || !sandbox.network)
    ? `; ${program} needs the network and a writable HOME to fetch the server`
    : "";
  const keys = [
    ...(sandbox.network ? [] : ['"network": true gives it the network']),
    '"sandbox": false runs it outside the sandbox',
  ];
  const trust = trusted
    ? ""
    : ", or trust the project for your HOME and the network (pass --trust-project, or answer yes to the " +
      "trust question the REPL asks: tern without -p here)";
  return `${ran}${fetcher}; in its .mcp.json entry, ${keys.join(", ")}${trust}`;
}
