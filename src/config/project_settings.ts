/**
 * Settings files of permission rules, `{ "permissions": { "allow": ["execute_command(npm test*)"],
 * "deny": [], "ask": [] } }`, hooks and a status line: the project's `.tern/settings.json` and Claude Code's
 * `.claude/settings.json` and `.claude/settings.local.json` (what the repository supplies: deny and ask rules
 * always apply, allow rules and commands only once the project is trusted), and the user's own rules for the
 * project in tern's state folder (`settings.json` there, sealed: agent/state/own_settings.ts reads and writes
 * it).
 */
import { join, sep } from "../fs/path.ts";
import { type HookConfig, type HookSource, parseHooks, parseStatusLine } from "./hook_settings.ts";

/** Where the project's settings live, relative to the root. */
export const SETTINGS_PATH = ".tern/settings.json";
/** Claude Code's project settings, read after tern's own (the local one last), as Claude Code orders them. */
export const CLAUDE_SETTINGS_PATHS = [".claude/settings.json", ".claude/settings.local.json"] as const;
/** The user's own settings file in tern's state folder, as shown to the user. */
export const OWN_SETTINGS_PATH = ".tern/local/settings.json";

/** The permission rules as written in the file. */
export interface PermissionSettings {
  allow: string[];
  deny: string[];
  /** Rules of calls that always ask, whatever the approval mode (Claude Code's `permissions.ask`). */
  ask?: string[];
}

/** What loading found: the rules, and a warning for each thing it could not use. */
export interface LoadedSettings {
  permissions: PermissionSettings;
  /**
   * `mcp.passEnv`: per MCP server, tern's own key variables the user lets `${VAR}` pass to it. Honoured
   * only from the user's own settings, never from the project's.
   */
  mcpPassEnv: Record<string, string[]>;
  /** `hooks`: commands run on events (the project's only once it is trusted, and then in the sandbox). */
  hooks: HookConfig[];
  /** `lsp`: language servers for diagnostics after edits, as written (read by tools/lsp/servers.ts). */
  lsp?: unknown;
  warnings: string[];
  /** The project's settings files that gave rules or hooks, as shown to the user. */
  files?: string[];
}

/**
 * Reads `.tern/settings.json` and Claude Code's two files under `root`, merged in that order; a missing file
 * is no rules, a broken one a warning. `mcpPassEnv` is never the project's to give.
 */
export async function loadProjectSettings(root: string): Promise<LoadedSettings> {
  const merged: LoadedSettings = {
    permissions: { allow: [], deny: [], ask: [] },
    mcpPassEnv: {},
    hooks: [],
    warnings: [],
    files: [],
  };
  for (const shownAs of [SETTINGS_PATH, ...CLAUDE_SETTINGS_PATHS]) {
    const file = await settingsFile(root, shownAs);
    if (file === undefined) continue;
    const loaded = await readSettings(file, shownAs);
    for (const list of ["allow", "deny", "ask"] as const) {
      merged.permissions[list]!.push(...loaded.permissions[list] ?? []);
    }
    merged.hooks.push(...loaded.hooks);
    const { allow, deny, ask } = loaded.permissions;
    if (allow.length + deny.length + (ask?.length ?? 0) + loaded.hooks.length > 0) {
      merged.files!.push(shownAs);
    }
    merged.warnings.push(...loaded.warnings);
    // Only tern's own file speaks of language servers (`lsp` is not a Claude Code setting).
    if (shownAs === SETTINGS_PATH && loaded.lsp !== undefined) merged.lsp = loaded.lsp;
  }
  // One status line: the last file's wins, as in Claude Code.
  const statusLines = merged.hooks.filter((hook) => hook.event === "StatusLine");
  merged.hooks = [...merged.hooks.filter((hook) => hook.event !== "StatusLine"), ...statusLines.slice(-1)];
  return merged;
}

/** Reads a settings file (`shownAs` names it in warnings); a missing file is no rules, a broken one a warning. */
export async function readSettings(file: string, shownAs = SETTINGS_PATH): Promise<LoadedSettings> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return settingsData({}, shownAs);
    const warning = `${shownAs} is unreadable; its permission rules and hooks are ignored`;
    return { ...settingsData({}, shownAs), warnings: [warning] };
  }
  try {
    return settingsData(JSON.parse(text), shownAs);
  } catch (error) {
    const why = error instanceof SyntaxError ? `not valid JSON (${error.message})` : "unreadable";
    const warning = `${shownAs} is ${why}; its permission rules and hooks are ignored`;
    return { ...settingsData({}, shownAs), warnings: [warning] };
  }
}

/** The settings in a parsed settings file (`shownAs` names it in warnings). */
export function settingsData(data: unknown, shownAs = SETTINGS_PATH): LoadedSettings {
  const permissions: PermissionSettings = { allow: [], deny: [], ask: [] };
  const mcpPassEnv: Record<string, string[]> = {};
  const warnings: string[] = [];
  const scope = shownAs === OWN_SETTINGS_PATH ? "user" : "project";
  const from: HookSource = {
    file: shownAs,
    scope,
    ...shownAs.startsWith(".claude/") && { dialect: "claude" },
  };
  const hooks = parseHooks((data as { hooks?: unknown })?.hooks, from);
  const statusLine = parseStatusLine((data as { statusLine?: unknown })?.statusLine, from);
  warnings.push(...hooks.warnings, ...statusLine.warnings);
  const passEnv = (data as { mcp?: { passEnv?: unknown } })?.mcp?.passEnv;
  if (passEnv && typeof passEnv === "object" && !Array.isArray(passEnv)) {
    for (const [server, names] of Object.entries(passEnv)) {
      if (Array.isArray(names)) mcpPassEnv[server] = names.filter((name) => typeof name === "string");
    }
  }
  const section = (data as { permissions?: Record<string, unknown> })?.permissions ?? {};
  for (const list of ["allow", "deny", "ask"] as const) {
    const value = section[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      warnings.push(
        `${shownAs}: permissions.${list} should be a list of rules like "edit_file(src/**)"`,
      );
      continue;
    }
    for (const rule of value) {
      if (typeof rule === "string") permissions[list]!.push(rule);
      else warnings.push(`${shownAs}: permissions.${list} holds a non-string rule; skipped`);
    }
  }
  const all = statusLine.hook ? [...hooks.hooks, statusLine.hook] : hooks.hooks;
  const lsp = (data as { lsp?: unknown })?.lsp;
  return { permissions, mcpPassEnv, hooks: all, warnings, ...(lsp !== undefined && { lsp }) };
}

/** The settings file's path, or undefined when its folder is a link leading outside the root. */
async function settingsFile(root: string, shownAs: string): Promise<string | undefined> {
  const [folder, name] = shownAs.split("/");
  const dir = join(root, folder);
  try {
    const real = await Deno.realPath(dir);
    const realRoot = await Deno.realPath(root);
    if (real !== join(realRoot, folder) && !real.startsWith(realRoot + sep)) return undefined;
  } catch { /* no such folder yet */ }
  return join(dir, name);
}
