/**
 * The user's own settings for a project, `.tern/local/settings.json`: hooks run with the user's permissions
 * outside the sandbox, allow rules that let calls run unasked, `mcp.passEnv`. Being tern's state, it is
 * sealed (state_seal.ts), so a file a `git pull` or checkout wrote there runs nothing and grants nothing. It
 * is also the one state file people edit by hand: an edit breaks the seal, so an unsealed file is left where
 * it is (it may be your edit), used for nothing and said at each start, until `tern config sign` shows
 * what it grants and seals it once you say yes. "Always allow" answers are written sealed.
 */
import { type LoadedSettings, OWN_SETTINGS_PATH, settingsData } from "../../config/project_settings.ts";
import { describeHook } from "../../config/hook_settings.ts";
import { moveAside, openJson, stateSeal, writeSealedFile } from "./seal.ts";
import { boundStatePath, stateDir } from "./tern_dir.ts";

const FILE = "settings.json";

/** The user's own settings as read: the settings when sealed, else a line saying why none apply. */
export interface OwnSettings {
  settings?: LoadedSettings;
  note?: string;
}

/** What `.tern/local/settings.json` holds, as text, or undefined when there is none. */
function readText(root: string): string | undefined {
  const file = boundStatePath(root, FILE);
  if (file === undefined) return undefined;
  try {
    return Deno.lstatSync(file).isFile ? Deno.readTextFileSync(file) : "";
  } catch {
    return undefined;
  }
}

/** The user's own settings for `root`: used only when tern sealed them here (see the module comment). */
export function readOwnSettings(root: string): OwnSettings {
  const text = readText(root);
  if (text === undefined) return {};
  const seal = stateSeal(root);
  const data = seal && openJson(seal, FILE, text);
  if (data !== undefined) return { settings: settingsData(data, OWN_SETTINGS_PATH) };
  return {
    note:
      `ignored ${OWN_SETTINGS_PATH}: tern did not write it in this directory (an edit by hand, an older ` +
      "tern, or a git pull or checkout), so its hooks, rules and MCP settings do not apply; if it is yours, " +
      "`tern config sign` shows what it grants and seals it",
  };
}

/** The lines `tern config sign` shows: every hook, rule and passed variable the file would grant. */
export function describeOwnSettings(settings: LoadedSettings): string[] {
  const lines = settings.hooks.map((hook) => `hook (runs with your permissions): ${describeHook(hook)}`);
  for (const rule of settings.permissions.allow) lines.push(`allow without asking: ${rule}`);
  for (const rule of settings.permissions.deny) lines.push(`deny: ${rule}`);
  for (const [server, names] of Object.entries(settings.mcpPassEnv)) {
    lines.push(`MCP server ${server} may take: ${names.join(", ")}`);
  }
  return lines;
}

/** The file as it is now, unsealed or not, parsed: what `tern config sign` would seal; undefined if none. */
export function pendingOwnSettings(
  root: string,
): { data: Record<string, unknown>; settings: LoadedSettings } | { error: string } | undefined {
  const text = readText(root);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return { error: `${OWN_SETTINGS_PATH} does not hold a JSON object` };
    }
    const { seal: _old, ...data } = parsed as Record<string, unknown>;
    return { data, settings: settingsData(data, OWN_SETTINGS_PATH) };
  } catch (error) {
    return { error: `${OWN_SETTINGS_PATH} is not valid JSON (${(error as Error).message})` };
  }
}

/** Writes `data` as the user's own settings, sealed (a temp file renamed into place). */
export function writeOwnSettings(root: string, data: Record<string, unknown>): void {
  const dir = stateDir(root, "");
  const seal = stateSeal(root);
  if (seal === undefined) throw new Error("tern's state folder has no key");
  writeSealedFile(seal, dir, FILE, data);
}

/**
 * Adds `rule` to `permissions.<list>` of the user's own settings, keeping every other key of a sealed file.
 * An unsealed file is never merged in (that would seal what a git pull wrote): it is moved aside first.
 */
export function saveOwnRule(root: string, list: "allow" | "deny", rule: string): Promise<void> {
  const seal = stateSeal(root);
  const text = readText(root);
  let data: Record<string, unknown> = {};
  if (text !== undefined) {
    const sealed = seal && openJson(seal, FILE, text);
    if (sealed === undefined) moveAside(root, FILE);
    else data = sealed;
  }
  const permissions =
    (typeof data.permissions === "object" && data.permissions !== null ? data.permissions : {}) as Record<
      string,
      unknown
    >;
  const rules = Array.isArray(permissions[list]) ? [...permissions[list] as unknown[]] : [];
  if (!rules.includes(rule)) rules.push(rule);
  writeOwnSettings(root, { ...data, permissions: { ...permissions, [list]: rules } });
  return Promise.resolve();
}
