/**
 * Settings files of permission rules, `{ "permissions": { "allow": ["execute_command(npm test*)"],
 * "deny": [] } }`: the project's `.tern/settings.json` (what the repository supplies: its deny rules always
 * apply, its allow rules only once the project is trusted), and the user's own rules for the project in
 * tern's state folder (`settings.json` there), where an "always allow" answer at the prompt is written back
 * with every other key kept.
 */
import { join, sep } from "node:path";
import { type HookConfig, parseHooks } from "./hook_settings.ts";

/** Where the project's settings live, relative to the root. */
export const SETTINGS_PATH = ".tern/settings.json";
/** The user's own settings file in tern's state folder, as shown to the user. */
export const OWN_SETTINGS_PATH = ".tern/local/settings.json";

/** The permission rules as written in the file. */
export interface PermissionSettings {
  allow: string[];
  deny: string[];
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
}

/** Reads `.tern/settings.json` under `root`; a missing file is no rules, a broken one a warning. */
export async function loadProjectSettings(root: string): Promise<LoadedSettings> {
  const file = await settingsFile(root);
  return file === undefined
    ? { permissions: { allow: [], deny: [] }, mcpPassEnv: {}, hooks: [], warnings: [] }
    : await readSettings(file);
}

/** Reads a settings file (`shownAs` names it in warnings); a missing file is no rules, a broken one a warning. */
export async function readSettings(file: string, shownAs = SETTINGS_PATH): Promise<LoadedSettings> {
  const permissions: PermissionSettings = { allow: [], deny: [] };
  const mcpPassEnv: Record<string, string[]> = {};
  const warnings: string[] = [];
  let data: unknown;
  try {
    data = JSON.parse(await Deno.readTextFile(file));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { permissions, mcpPassEnv, hooks: [], warnings };
    const why = error instanceof SyntaxError ? `not valid JSON (${error.message})` : "unreadable";
    const warning = `${shownAs} is ${why}; its permission rules and hooks are ignored`;
    return { permissions, mcpPassEnv, hooks: [], warnings: [warning] };
  }
  const scope = shownAs === OWN_SETTINGS_PATH ? "user" : "project";
  const hooks = parseHooks((data as { hooks?: unknown })?.hooks, { file: shownAs, scope });
  warnings.push(...hooks.warnings);
  const passEnv = (data as { mcp?: { passEnv?: unknown } })?.mcp?.passEnv;
  if (passEnv && typeof passEnv === "object" && !Array.isArray(passEnv)) {
    for (const [server, names] of Object.entries(passEnv)) {
      if (Array.isArray(names)) mcpPassEnv[server] = names.filter((name) => typeof name === "string");
    }
  }
  const section = (data as { permissions?: Record<string, unknown> })?.permissions ?? {};
  for (const list of ["allow", "deny"] as const) {
    const value = section[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      warnings.push(
        `${shownAs}: permissions.${list} should be a list of rules like "edit_file(src/**)"`,
      );
      continue;
    }
    for (const rule of value) {
      if (typeof rule === "string") permissions[list].push(rule);
      else warnings.push(`${shownAs}: permissions.${list} holds a non-string rule; skipped`);
    }
  }
  const lsp = (data as { lsp?: unknown })?.lsp;
  return { permissions, mcpPassEnv, hooks: hooks.hooks, warnings, ...(lsp !== undefined && { lsp }) };
}

/** Adds `rule` to `permissions.<list>` in `dir`'s settings.json (created if missing), keeping other keys. */
export async function saveRule(dir: string, list: "allow" | "deny", rule: string): Promise<void> {
  const file = join(dir, "settings.json");
  let data: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(await Deno.readTextFile(file));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed;
  } catch { /* missing or broken: start afresh */ }
  const permissions =
    (data.permissions && typeof data.permissions === "object" ? data.permissions : {}) as Record<
      string,
      unknown
    >;
  const rules = Array.isArray(permissions[list]) ? permissions[list] as unknown[] : [];
  if (!rules.includes(rule)) rules.push(rule);
  data.permissions = { ...permissions, [list]: rules };
  const temp = `${file}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(temp, JSON.stringify(data, null, 2) + "\n");
  await Deno.rename(temp, file);
}

/** The settings file's path, or undefined when `.tern` is a link leading outside the root. */
async function settingsFile(root: string): Promise<string | undefined> {
  const dir = join(root, ".tern");
  try {
    const real = await Deno.realPath(dir);
    const realRoot = await Deno.realPath(root);
    if (real !== join(realRoot, ".tern") && !real.startsWith(realRoot + sep)) return undefined;
  } catch { /* no .tern yet */ }
  return join(dir, "settings.json");
}
