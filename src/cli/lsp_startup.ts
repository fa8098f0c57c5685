/**
 * The session's language servers, set up at launch without starting any: the `lsp` settings (the user's own;
 * the project's once it is trusted) and the sandbox they will run in. A server starts at the first edit of a
 * file it checks (tools/lsp/diagnostics.ts); `"lsp": false` leaves the file tools without diagnostics.
 */
import type { SandboxMode } from "../config/settings.ts";
import { type DiagnosticsService, LspDiagnostics } from "../tools/lsp/diagnostics.ts";
import { lspSettings } from "../tools/lsp/servers.ts";

/** What `setUpDiagnostics` reads. */
export interface DiagnosticsSetup {
  root: string;
  sandbox: SandboxMode;
  /** The project is trusted: its `.tern/settings.json` `lsp` key counts, its servers get the user's HOME. */
  trusted: boolean;
  /** The `lsp` key of the user's own settings for the project, and of the project's. */
  own?: unknown;
  project?: unknown;
  env: Record<string, string>;
  /** Lines about settings that could not be used. */
  warn(line: string): void;
}

/** The diagnostics service of a session, or undefined when the settings turn it off. Starts nothing. */
export function setUpDiagnostics(setup: DiagnosticsSetup): DiagnosticsService | undefined {
  const settings = lspSettings(setup.own, setup.trusted ? setup.project : undefined);
  for (const problem of settings.problems) setup.warn(`settings: ${problem} (skipped)`);
  if (!settings.enabled) return undefined;
  const wait = Number(setup.env.TERN_LSP_WAIT_MS);
  return new LspDiagnostics({
    root: setup.root,
    sandbox: setup.sandbox,
    trusted: setup.trusted,
    settings,
    ...(setup.env.TERN_LSP_WAIT_MS !== undefined && wait >= 0 && { waitMs: wait }),
  });
}
