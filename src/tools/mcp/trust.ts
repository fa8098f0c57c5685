/**
 * Whether the project's `.mcp.json` may start its servers. A cloned repository's file runs programs, so it
 * is never trusted blindly: the user is asked once (REPL) and the answer is remembered in
 * `.tern/mcp-trust.json` for exactly this project and these bytes (any change asks again); headless runs
 * refuse unless `--trust-project-mcp`. A trust file that git tracks came with the repository and is ignored.
 */
import type { McpConfigFile, McpServerConfig } from "./config.ts";
import { referencedVariables } from "./config.ts";

/** Where decisions are remembered, relative to the root. */
export const TRUST_FILE = ".tern/mcp-trust.json";

/** Asks the user whether to start the servers described by `lines`; true = start them. */
export type TrustAsker = (lines: string[]) => Promise<boolean>;

/** The outcome and where it came from, for one line in the banner or on stderr. */
export interface TrustOutcome {
  trusted: boolean;
  how: "flag" | "remembered" | "asked" | "no_terminal";
}

/** The key of one decision: this project (its real path) and these exact bytes. */
export async function trustKey(root: string, text: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${root}\0${text}`);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** What the trust prompt shows: each server and what it would run or reach. */
export function describeServers(config: McpConfigFile): string[] {
  const lines = config.servers.map(describe);
  const vars = referencedVariables(config.text);
  if (vars.length > 0) lines.push(`it passes these variables of yours to the servers: ${vars.join(", ")}`);
  return lines;
}

function describe(server: McpServerConfig): string {
  if (server.type === "http") {
    const headers = Object.keys(server.headers);
    return `${server.name}: HTTP ${server.url}${headers.length ? ` (headers: ${headers.join(", ")})` : ""}`;
  }
  const where = server.sandbox ? `sandboxed${server.network ? " with network" : ""}` : "NOT sandboxed";
  const env = Object.keys(server.env);
  const command = [server.command, ...server.args].map(quoteForDisplay).join(" ");
  return `${server.name}: runs ${command} (${where}${env.length ? `; env: ${env.join(", ")}` : ""})`;
}

function quoteForDisplay(word: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  const clean = word.replace(/[\x00-\x1f\x7f]/g, "?");
  return /^[\w./:=@%+-]+$/.test(clean) ? clean : `'${clean.replaceAll("'", `'\\''`)}'`;
}

/**
 * Decides whether the servers may start: the flag wins; then a remembered decision; then the asker (the
 * answer is remembered); with no asker (headless, no terminal) the answer is no and nothing is remembered.
 */
export async function decideTrust(
  root: string,
  config: McpConfigFile,
  options: { flag: boolean; ask?: TrustAsker },
): Promise<TrustOutcome> {
  if (options.flag) return { trusted: true, how: "flag" };
  const key = await trustKey(root, config.text);
  const remembered = (await readDecisions(root))[key];
  if (remembered !== undefined) return { trusted: remembered === "trusted", how: "remembered" };
  if (options.ask === undefined) return { trusted: false, how: "no_terminal" };
  const trusted = await options.ask(describeServers(config));
  await remember(root, key, trusted);
  return { trusted, how: "asked" };
}

type Decisions = Record<string, "trusted" | "refused">;

async function readDecisions(root: string): Promise<Decisions> {
  if (await trackedByGit(root)) return {};
  try {
    const info = await Deno.lstat(`${root}/${TRUST_FILE}`);
    if (!info.isFile || info.size > 1_000_000) return {};
    const json = JSON.parse(await Deno.readTextFile(`${root}/${TRUST_FILE}`));
    const decisions = json?.decisions;
    if (typeof decisions !== "object" || decisions === null) return {};
    return Object.fromEntries(
      Object.entries(decisions).filter(([, value]) => value === "trusted" || value === "refused"),
    ) as Decisions;
  } catch {
    return {};
  }
}

async function remember(root: string, key: string, trusted: boolean): Promise<void> {
  try {
    // .tern must be a real directory of the project, not a symlink planted to lead elsewhere.
    const dir = await Deno.lstat(`${root}/.tern`).catch(() => undefined);
    if (dir !== undefined && !dir.isDirectory) return;
    if (dir === undefined) {
      await Deno.mkdir(`${root}/.tern`);
      await Deno.writeTextFile(`${root}/.tern/.gitignore`, "*\n");
    }
    const decisions = { ...await readDecisions(root), [key]: trusted ? "trusted" : "refused" };
    const temp = `${root}/${TRUST_FILE}.${crypto.randomUUID()}.tmp`;
    await Deno.writeTextFile(temp, JSON.stringify({ version: 1, decisions }, null, 2) + "\n", {
      createNew: true,
    });
    await Deno.rename(temp, `${root}/${TRUST_FILE}`);
  } catch {
    // Not remembering only means asking again next time.
  }
}

/** True when git's index lists the trust file: then it came with the repository, not from this user. */
async function trackedByGit(root: string): Promise<boolean> {
  try {
    const info = await Deno.lstat(`${root}/.git/index`);
    if (!info.isFile || info.size > 64_000_000) return false;
    const index = await Deno.readFile(`${root}/.git/index`);
    return new TextDecoder("latin1").decode(index).includes(TRUST_FILE);
  } catch {
    return false;
  }
}
