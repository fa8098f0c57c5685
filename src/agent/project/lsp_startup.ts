/**
 * The session's language servers, set up at launch without starting any: the `lsp` settings (the user's own;
 * the project's once the user trusted it, and before that only where it turns servers off) and the sandbox
 * they will run in. A server starts at the first edit of a
 * file it checks (tools/lsp/diagnostics.ts); `"lsp": false` leaves the file tools without diagnostics.
 */
import type { SandboxMode } from "../../config/settings.ts";
import { type DiagnosticsService, LspDiagnostics } from "../../tools/lsp/diagnostics.ts";
import { lspSettings } from "../../tools/lsp/servers.ts";
import type { ProjectTrust } from "../policy/project_trust.ts";

/** What `setUpDiagnostics` reads. */
export interface DiagnosticsSetup {
  root: string;
  sandbox: SandboxMode;
  /** The trust decision: only a project the user trusted (not one with nothing to trust) counts as trusted. */
  trust: ProjectTrust;
  /** The `lsp` key of the user's own settings for the project, and of the project's. */
  own?: unknown;
  project?: unknown;
  env: Record<string, string>;
  /** Lines about settings that could not be used. */
  warn(line: string): void;
}

/** The diagnostics service of a session, or undefined when the settings turn it off. Starts nothing. */
export function setUpDiagnostics(setup: DiagnosticsSetup): DiagnosticsService | undefined {
  // A server may run the project's code (a workspace's own TypeScript, a build script): a project that merely
  // supplies nothing to trust has not been vouched for, so its servers get the strict sandbox.
  const trusted = setup.trust.project && setup.trust.how !== "nothing_to_trust";
  const project = trusted ? setup.project : offOnly(setup.project);
  const settings = lspSettings(setup.own, project);
  for (const problem of settings.problems) setup.warn(`settings: ${problem} (skipped)`);
  if (!settings.enabled) return undefined;
  const wait = Number(setup.env.TERN_LSP_WAIT_MS);
  return new LspDiagnostics({
    root: setup.root,
    sandbox: setup.sandbox,
    trusted,
    settings,
    ...(setup.env.TERN_LSP_WAIT_MS !== undefined && wait >= 0 && { waitMs: wait }),
  });
}

/** What an untrusted project's `lsp` key may say: only what turns servers off (it may tighten, never loosen). */
function offOnly(value: unknown): unknown {
  if (value === false) return false;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const off = Object.entries(value).filter(([, entry]) => entry === false);
  return off.length > 0 ? Object.fromEntries(off) : undefined;
}

/**
 * The language servers a project's `lsp` key would start, one line each ("name: command (extensions)"), for
 * the trust question: a server is the project's program, run only once the user trusted it.
 */
export function projectServerLines(project: unknown): string[] {
  if (project === undefined) return [];
  return lspSettings(undefined, project).servers.filter((server) => server.source === "project").map(
    (server) => `${server.name}: ${server.command.join(" ")} (${server.extensions.join(" ")})`,
  );
}
