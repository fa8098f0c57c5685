/** The project's own files, read at the door in parallel (open_project.ts). */
import { KEY_VARIABLES } from "../../config/providers.ts";
import { loadProjectSettings } from "../../config/project_settings.ts";
import { loadMemory } from "./memory.ts";
import { discoverSkills } from "./skills.ts";
import { projectCommandFiles } from "./custom_commands.ts";
import { discoverAgents, userAgentDir } from "./agents.ts";
import { readOwnSettings } from "../state/own_settings.ts";
import { readMcp } from "./mcp_startup.ts";

/** The project's own files, as read at the door. */
export type ProjectFiles = Awaited<ReturnType<typeof readProject>>;

/**
 * The project's own files, read in parallel: permission rules, skills, memory, agents (the user's too) and
 * `.mcp.json` (whose `${VAR}` never take tern's own key variables, unless the user's own settings pass one).
 */
export async function readProject(root: string, env: Record<string, string>, warn: (line: string) => void) {
  const own = readOwnSettings(root);
  if (own.note) warn(own.note);
  const ownSettings = own.settings;
  const withheld = { names: KEY_VARIABLES, granted: ownSettings?.mcpPassEnv };
  const [settings, { skills, problems }, memory, mcp, agents, commands] = await Promise.all([
    loadProjectSettings(root),
    discoverSkills(root),
    loadMemory(root),
    readMcp(root, env, withheld),
    discoverAgents(root, { userDir: userAgentDir(env) }),
    projectCommandFiles(root),
  ]);
  const commandFiles = commands.files.map((file) => file.source);
  return { settings, ownSettings, skills, skillProblems: problems, memory, mcp, agents, commandFiles };
}
