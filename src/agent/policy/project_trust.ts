/**
 * One trust decision for everything a project supplies: the `.env`'s choice of endpoint for the user's own
 * key, the `.mcp.json` servers, the allow rules and hooks of `.tern/settings.json` and Claude Code's
 * `.claude/settings.json` and `.claude/settings.local.json`, the memory file, the
 * skills, agents and commands. A cloned repository may have been written by anyone, so none of it is
 * honoured until the user trusts the project: asked once (REPL) and remembered in tern's own bound state,
 * `.tern/local/trust.json`, sealed (state_seal.ts: a copy the repository brought, or a file a `git pull`
 * wrote there, is never read). The decision covers what can run
 * code or loosen approval (endpoint, MCP config, allow rules, hooks): when any of that changes, the question
 * comes again.
 */
import { boundStatePath, stateDir } from "../state/tern_dir.ts";
import { openJson, stateSeal, writeSealedFile } from "../state/seal.ts";

/** Where the decision is kept, inside tern's state folder. */
const TRUST_FILE = "trust.json";

/** What the project supplies that needs the user's trust, as found at start. */
export interface ProjectSupplies {
  /** The project's `.env` chose where the user's own key goes. */
  endpoint?: { endpoint: string; variable: string };
  /** `.mcp.json` with servers: its exact text, and one line per server (what it runs or reaches). */
  mcp?: { text: string; lines: string[] };
  /** Allow rules of the settings files (deny and ask rules only tighten: they need no trust). */
  allowRules: string[];
  /** The project's settings files that hold rules or hooks (default: `.tern/settings.json`). */
  settingsFiles?: string[];
  /** The memory file, e.g. `AGENTS.md`. */
  memory?: string;
  /** The skills' names. */
  skills: string[];
  /** The project's agent files (`.tern/agents`, `.claude/agents`), as found. */
  agents?: string[];
  /** The project's command files (`.tern/commands`, `.claude/commands`), as found. */
  commands?: string[];
  /** The hooks (and status line) of the settings files, one line each (event, matcher, command). */
  hooks?: string[];
  /** The language servers `.tern/settings.json` names (its `lsp` key), one line each (name, command). */
  lsp?: string[];
}

/** Flags that trust without asking: `--trust-project`, and the narrower `-env` and `-mcp`. */
export interface TrustFlags {
  project?: boolean;
  env?: boolean;
  mcp?: boolean;
}

/** What may be used in this run, and how that was decided. */
export interface ProjectTrust {
  /** Allow rules, memory as instructions, skills. */
  project: boolean;
  endpoint: boolean;
  mcp: boolean;
  how: "nothing_to_trust" | "flag" | "remembered" | "asked" | "no_terminal";
  /** The remembered or given answer was no. */
  refused?: boolean;
}

/** Asks the user whether to trust the project, showing `lines`; true = trust it (and remember). */
export type ProjectTrustAsker = (lines: string[]) => Promise<boolean>;

/** True when the project supplies anything that waits for trust. */
export function suppliesAnything(supplies: ProjectSupplies): boolean {
  return supplies.endpoint !== undefined || supplies.mcp !== undefined || supplies.allowRules.length > 0 ||
    supplies.memory !== undefined || supplies.skills.length > 0 || (supplies.agents?.length ?? 0) > 0 ||
    (supplies.commands?.length ?? 0) > 0 || (supplies.hooks?.length ?? 0) > 0 ||
    (supplies.lsp?.length ?? 0) > 0;
}

/** The lines of the trust question: every name, command and rule the project supplies (raw text). */
export function describeSupplies(supplies: ProjectSupplies): string[] {
  const lines: string[] = [];
  const { endpoint, mcp } = supplies;
  if (endpoint) {
    lines.push(`.env sends your own API key to ${endpoint.endpoint} (it sets ${endpoint.variable})`);
  }
  if (mcp) lines.push(".mcp.json starts these MCP servers:", ...mcp.lines.map((line) => `  ${line}`));
  const settings = settingsLabel(supplies);
  if (supplies.allowRules.length > 0) {
    lines.push(`${settings} lets these run without asking: ${supplies.allowRules.join(", ")}`);
  }
  if (supplies.memory) lines.push(`${supplies.memory}: instructions put in the model's system prompt`);
  if (supplies.skills.length > 0) {
    lines.push(`skills the model is told to follow: ${supplies.skills.join(", ")}`);
  }
  if (supplies.agents?.length) lines.push(`sub-agent files: ${supplies.agents.join(", ")}`);
  if (supplies.commands?.length) lines.push(`slash command files (prompts): ${supplies.commands.join(", ")}`);
  if (supplies.hooks?.length) {
    lines.push(
      `${settings} runs these hooks (in the sandbox) on events:`,
      ...supplies.hooks.map((line) => `  ${line}`),
    );
  }
  if (supplies.lsp?.length) {
    lines.push(
      ".tern/settings.json starts these language servers (in the sandbox) after edits:",
      ...supplies.lsp.map((line) => `  ${line}`),
    );
  }
  return lines;
}

/** The digest a decision covers: the endpoint, the MCP config's bytes, the allow rules, hooks and servers. */
function supplyDigest(supplies: ProjectSupplies): Promise<string> {
  return sha256(JSON.stringify({
    endpoint: supplies.endpoint?.endpoint ?? null,
    mcp: supplies.mcp?.text ?? null,
    allow: [...supplies.allowRules].sort(),
    // Only when there are some: a decision taken before hooks existed stays valid for a project without.
    ...supplies.hooks?.length ? { hooks: supplies.hooks } : {},
    ...supplies.lsp?.length ? { lsp: supplies.lsp } : {},
  }));
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The digests of the parts a narrower flag trusts: the endpoint and the `.mcp.json` bytes. */
async function partDigests(supplies: ProjectSupplies): Promise<{ endpoint?: string; mcp?: string }> {
  return {
    ...(supplies.endpoint && { endpoint: await sha256(supplies.endpoint.endpoint) }),
    ...(supplies.mcp && { mcp: await sha256(supplies.mcp.text) }),
  };
}

/**
 * Decides what of the project this run may use: nothing to decide; `--trust-project`; a remembered answer
 * for exactly these supplies; else the asker (its answer is remembered). A flag's trust is remembered too,
 * in the same store: `--trust-project-mcp` in a `-p` run means later runs start that `.mcp.json`'s servers
 * without asking. Without an asker (headless), only what a flag names or a remembered part is trusted. Parts trusted alone never hide the question: a REPL run without
 * a narrower flag of its own asks about the whole project until it has an answer for it. Never throws for a
 * state folder that cannot be written.
 */
export async function decideProjectTrust(
  root: string,
  supplies: ProjectSupplies,
  options: { flags: TrustFlags; ask?: ProjectTrustAsker },
): Promise<ProjectTrust> {
  const { flags } = options;
  if (!suppliesAnything(supplies)) {
    return { project: true, endpoint: true, mcp: true, how: "nothing_to_trust" };
  }
  const digest = await supplyDigest(supplies);
  if (flags.project) {
    remember(root, { decision: "trusted", digest });
    return { project: true, endpoint: true, mcp: true, how: "flag" };
  }
  const remembered = readDecision(root);
  const parts = await partDigests(supplies);
  const same = (part: "mcp" | "endpoint") =>
    parts[part] !== undefined && remembered?.parts?.[part] === parts[part];
  const mcp = flags.mcp === true || same("mcp");
  const endpoint = flags.env === true || same("endpoint");
  const stored = {
    ...remembered?.parts,
    ...(flags.mcp && { mcp: parts.mcp }),
    ...(flags.env && { endpoint: parts.endpoint }),
  };
  if (flags.mcp || flags.env) remember(root, { ...remembered, parts: stored });
  const answer = (trusted: boolean, how: ProjectTrust["how"], refused = false): ProjectTrust => ({
    project: trusted,
    endpoint: trusted || endpoint,
    mcp: trusted || mcp,
    how,
    ...(trusted ? {} : { refused }),
  });
  if (remembered?.digest === digest) {
    const trusted = remembered.decision === "trusted";
    return answer(trusted, "remembered", !trusted);
  }
  // What is left to decide once the parts trusted by a flag, or remembered, are set aside.
  const byFlag = flags.mcp === true || flags.env === true;
  const rest = { ...supplies, ...(mcp && { mcp: undefined }), ...(endpoint && { endpoint: undefined }) };
  // Parts trusted alone never hide the full question: a REPL without a narrower flag of its own asks it.
  if (!suppliesAnything(rest) && (byFlag || options.ask === undefined)) {
    return answer(false, byFlag ? "flag" : "remembered");
  }
  if (options.ask === undefined) return answer(false, byFlag ? "flag" : "no_terminal");
  const trusted = await options.ask(describeSupplies(supplies));
  // A no takes back the parts trusted before; this run keeps only what its own flags say.
  remember(root, trusted ? { decision: "trusted", digest, parts: stored } : { decision: "refused", digest });
  if (trusted) return answer(true, "asked");
  return {
    project: false,
    endpoint: flags.env === true,
    mcp: flags.mcp === true,
    how: "asked",
    refused: true,
  };
}

interface Decision {
  decision?: "trusted" | "refused";
  digest?: string;
  /** Parts trusted on their own, by `--trust-project-mcp` or `--trust-project-env`: their digests. */
  parts?: { endpoint?: string; mcp?: string };
}

function readDecision(root: string): Decision | undefined {
  const file = boundStatePath(root, TRUST_FILE);
  const seal = stateSeal(root);
  if (file === undefined || seal === undefined) return undefined;
  try {
    // Unsealed (planted, or from before seals): no decision; the start-up check moved it aside and said so.
    const json = openJson(seal, TRUST_FILE, Deno.readTextFileSync(file)) as
      | { decision?: unknown; digest?: unknown; parts?: { endpoint?: unknown; mcp?: unknown } | null }
      | undefined;
    if (json === undefined) return undefined;
    const decision = json?.decision === "trusted" || json?.decision === "refused" ? json.decision : undefined;
    const digest = typeof json?.digest === "string" ? json.digest : undefined;
    const parts = typeof json?.parts === "object" && json.parts !== null
      ? {
        ...(typeof json.parts.endpoint === "string" && { endpoint: json.parts.endpoint as string }),
        ...(typeof json.parts.mcp === "string" && { mcp: json.parts.mcp as string }),
      }
      : undefined;
    return { ...(decision && digest && { decision, digest }), ...(parts && { parts }) };
  } catch { /* unreadable: asked again */ }
  return undefined;
}

function remember(root: string, decision: Decision): void {
  try {
    const dir = stateDir(root, "");
    const seal = stateSeal(root);
    if (seal === undefined) return;
    writeSealedFile(seal, dir, TRUST_FILE, { version: 4, ...decision });
  } catch {
    // Not remembering only means asking again next time.
  }
}

/**
 * The one line a run says about what it did not use, or undefined when everything was used: e.g. "ignored
 * .tern/settings.json permissions: this project's settings are not trusted yet".
 */
export function untrustedNote(supplies: ProjectSupplies, trust: ProjectTrust): string | undefined {
  const parts: string[] = [];
  if (supplies.mcp && !trust.mcp) parts.push(`.mcp.json (${plural(supplies.mcp.lines.length, "server")})`);
  if (!trust.project) {
    const rules = supplies.allowRules.length;
    if (rules > 0) parts.push(`${settingsLabel(supplies)} permissions (${plural(rules, "allow rule")})`);
    if (supplies.skills.length > 0) parts.push(`the project's ${plural(supplies.skills.length, "skill")}`);
    const agents = supplies.agents?.length ?? 0;
    if (agents > 0) parts.push(`the project's ${plural(agents, "agent file")}`);
    const commands = supplies.commands?.length ?? 0;
    if (commands > 0) parts.push(`the project's ${plural(commands, "command file")}`);
    const hooks = supplies.hooks?.length ?? 0;
    if (hooks > 0) parts.push(`${settingsLabel(supplies)} ${plural(hooks, "hook")}`);
    const servers = supplies.lsp?.length ?? 0;
    if (servers > 0) parts.push(`.tern/settings.json ${plural(servers, "language server")}`);
  }
  const memory = !trust.project && supplies.memory ? `${supplies.memory} is read as untrusted data` : "";
  if (parts.length === 0 && memory === "") return undefined;
  const why = trust.refused
    ? `you did not trust this project (pass --trust-project to trust it, or delete .tern/local/${TRUST_FILE} ` +
      "to be asked again in the REPL)"
    : "this project's settings are not trusted yet (pass --trust-project, or answer the trust question the " +
      "REPL asks: tern without -p here)";
  if (parts.length === 0) return `${memory}: ${why}`;
  return `ignored ${parts.join(", ")}: ${why}${memory ? `; ${memory}` : ""}`;
}

/** The settings files named in the question and the notes, e.g. ".tern/settings.json + .claude/settings.json". */
function settingsLabel(supplies: ProjectSupplies): string {
  return supplies.settingsFiles?.length ? supplies.settingsFiles.join(" + ") : ".tern/settings.json";
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
