/**
 * The project's own settings file, `.tern/settings.json`: for now the permission rules,
 * `{ "permissions": { "allow": ["execute_command(npm test*)"], "deny": [] } }`. Read at start; a rule
 * added at the approval prompt is written back with every other key kept.
 */
import { join, sep } from "node:path";

/** Where the settings live, relative to the root. */
export const SETTINGS_PATH = ".tern/settings.json";

/** The permission rules as written in the file. */
export interface PermissionSettings {
  allow: string[];
  deny: string[];
}

/** What loading found: the rules, and a warning for each thing it could not use. */
export interface LoadedSettings {
  permissions: PermissionSettings;
  warnings: string[];
}

/** Reads `.tern/settings.json` under `root`; a missing file is no rules, a broken one a warning. */
export async function loadProjectSettings(root: string): Promise<LoadedSettings> {
  const permissions: PermissionSettings = { allow: [], deny: [] };
  const warnings: string[] = [];
  const file = await settingsFile(root);
  if (file === undefined) return { permissions, warnings };
  let data: unknown;
  try {
    data = JSON.parse(await Deno.readTextFile(file));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { permissions, warnings };
    const why = error instanceof SyntaxError ? `not valid JSON (${error.message})` : "unreadable";
    return { permissions, warnings: [`${SETTINGS_PATH} is ${why}; its permission rules are ignored`] };
  }
  const section = (data as { permissions?: Record<string, unknown> })?.permissions ?? {};
  for (const list of ["allow", "deny"] as const) {
    const value = section[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      warnings.push(
        `${SETTINGS_PATH}: permissions.${list} should be a list of rules like "edit_file(src/**)"`,
      );
      continue;
    }
    for (const rule of value) {
      if (typeof rule === "string") permissions[list].push(rule);
      else warnings.push(`${SETTINGS_PATH}: permissions.${list} holds a non-string rule; skipped`);
    }
  }
  return { permissions, warnings };
}

/** Adds `rule` to `permissions.<list>` in the file (created with `.tern/` if missing), keeping other keys. */
export async function saveRule(root: string, list: "allow" | "deny", rule: string): Promise<void> {
  const file = await settingsFile(root);
  if (file === undefined) throw new Error(`${SETTINGS_PATH} leads outside the project`);
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
  await Deno.mkdir(join(root, ".tern"), { recursive: true });
  await Deno.writeTextFile(join(root, ".tern", ".gitignore"), "*\n", { createNew: true }).catch(() => {});
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
