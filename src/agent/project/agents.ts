/**
 * Named sub-agents: Markdown files whose YAML front matter gives `name`, `description`, `tools` and `model`
 * and whose body is the agent's instructions. The project supplies them in `.tern/agents/` and
 * `.claude/agents/` (Claude Code's tool names are understood); the user keeps their own in
 * `$XDG_CONFIG_HOME/tern/agents/` (else `~/.config/tern/agents/`), read only when tern may read there. A
 * project agent wins over the user's of the same name, as in Claude Code. An agent file never widens the
 * tools beyond the main session's and never grants an approval: `sub_agents.ts` applies both rules.
 */
import { frontMatter } from "./skills.ts";
import { type MarkdownFile, readProjectFolders, readUserFolder, userConfigDir } from "./_markdown_folder.ts";
import { isClaudeToolName, ternToolName } from "../../tools/claude_tools.ts";

/** Where the project's agent files live, in order of precedence. */
export const PROJECT_AGENT_DIRS = [".tern/agents", ".claude/agents"];

/** One named agent, as its file describes it. */
export interface AgentDefinition {
  name: string;
  description: string;
  /** tern tool names the file asked for; undefined = the read-only default. */
  tools?: string[];
  /** A model on the main session's endpoint; undefined = the main session's model. */
  model?: string;
  /** The body: the agent's own instructions, put in its system prompt. */
  instructions: string;
  /** Where it came from, as shown: ".tern/agents/x.md", or "~/.config/tern/agents/x.md". */
  source: string;
  /** What of the file was not honoured (unknown tools, a Claude model alias). */
  notes: string[];
}

/** An agent file as read: where it is shown from, and its text. */
export type AgentFile = MarkdownFile;

/** The agents found, sorted by name, and the files skipped with why. */
export interface FoundAgents {
  agents: AgentDefinition[];
  problems: string[];
  /** The user's own folder, as shown, and whether tern may read it. */
  userDir?: { shown: string; readable: boolean };
}

const AGENT_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const LIMITS = { maxFiles: 50, maxBytes: 64 * 1024, what: "agent files" };
/** Reserved: the agent a task runs when the model names none (tools/task.ts). */
const RESERVED = new Set(["general"]);

/** Claude Code's model aliases: they name Anthropic models, so elsewhere they mean "the session's model". */
const CLAUDE_MODEL_ALIASES = new Set(["sonnet", "opus", "haiku", "inherit"]);

/**
 * The agent files the project supplies (its own `.tern/agents` and `.claude/agents`). The one reader of them:
 * the trust decision for what a project supplies gates them here.
 */
export async function projectAgentFiles(root: string): Promise<{ files: AgentFile[]; problems: string[] }> {
  return await readProjectFolders(root, PROJECT_AGENT_DIRS, LIMITS);
}

/** The user's own agent folder for `env`: `$XDG_CONFIG_HOME/tern/agents`, else `~/.config/tern/agents`. */
export function userAgentDir(
  env: Record<string, string | undefined>,
): { path: string; shown: string } | null {
  return userConfigDir(env, "agents");
}

/**
 * The user's own agent files in `dir`; none when the folder is missing or tern's permission flags do not let
 * it read there (`readable: false`: the default flags allow only the project).
 */
export async function userAgentFiles(
  dir: { path: string; shown: string },
): Promise<{ files: AgentFile[]; problems: string[]; readable: boolean }> {
  return await readUserFolder(dir, LIMITS);
}

/** Finds the agents of the project and of the user (`userDir`), parsed; the project's win on a clash. */
export async function discoverAgents(
  root: string,
  options: { userDir?: { path: string; shown: string } | null } = {},
): Promise<FoundAgents> {
  const project = await projectAgentFiles(root);
  const user = options.userDir
    ? await userAgentFiles(options.userDir)
    : { files: [], problems: [], readable: false };
  const found = new Map<string, AgentDefinition>();
  const problems = [...project.problems, ...user.problems];
  for (const file of [...project.files, ...user.files]) {
    const agent = parseAgent(file);
    if (typeof agent === "string") problems.push(`${file.source}: ${agent}`);
    else if (found.has(agent.name)) {
      problems.push(`${file.source}: "${agent.name}" is already defined by ${found.get(agent.name)!.source}`);
    } else found.set(agent.name, agent);
  }
  const agents = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const userDir = options.userDir ? { shown: options.userDir.shown, readable: user.readable } : undefined;
  return { agents, problems, ...userDir && { userDir } };
}

/** Parses one agent file; a string says why it is not an agent. */
export function parseAgent(file: AgentFile): AgentDefinition | string {
  const fields = frontMatter(file.text);
  if (fields === undefined) return "no front matter (--- name: ... description: ... ---)";
  const stem = file.source.replace(/^.*\//, "").replace(/\.md$/i, "");
  const name = fields.name?.trim() || stem;
  if (!AGENT_NAME.test(name)) return "name must be lower-case letters, digits and hyphens";
  if (RESERVED.has(name)) return `"${name}" is the built-in agent's name; choose another`;
  const description = oneLine(fields.description ?? "");
  if (description === "") return "description is missing";
  const notes: string[] = [];
  const tools = toolNames(file.text, fields.tools, notes);
  let model = fields.model?.trim() || undefined;
  if (model && CLAUDE_MODEL_ALIASES.has(model.toLowerCase())) {
    if (model.toLowerCase() !== "inherit") {
      notes.push(`model "${model}" is Claude Code's alias: the session's model runs it`);
    }
    model = undefined;
  }
  const body = file.text.replace(/^\uFEFF?---\r?\n[\s\S]*?\r?\n---[^\n]*(?:\n|$)/, "").trim();
  return { name, description, tools, model, instructions: body, source: file.source, notes };
}

/** The `tools` field as tern tool names: `a, b`, `[a, b]` or a `- a` list; Claude's names translated. */
function toolNames(text: string, field: string | undefined, notes: string[]): string[] | undefined {
  let words = (field ?? "").replace(/^\[|\]$/g, "").split(/[\s,]+/).filter(Boolean);
  if (field === "") {
    const list = /^tools:\s*\r?\n((?:[ \t]+-[ \t]*\S.*\r?\n?)+)/m.exec(text)?.[1] ?? "";
    words = list.split(/\r?\n/).map((line) => line.replace(/^\s*-\s*/, "").trim()).filter(Boolean);
  }
  if (field === undefined || words.length === 0 || words.includes("*")) return undefined;
  const unknown: string[] = [];
  const names = new Set<string>();
  for (const word of words.map((w) => w.replace(/^["']|["']$/g, ""))) {
    const name = isClaudeToolName(word)
      ? ternToolName(word)
      : /^[a-z][a-z0-9_]*$/.test(word)
      ? word
      : undefined;
    if (name) names.add(name);
    else unknown.push(word);
  }
  if (unknown.length > 0) notes.push(`tools not known to tern, left out: ${unknown.join(", ")}`);
  return [...names];
}

function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  return text.replace(/[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, " ").replace(/\s+/g, " ")
    .trim().slice(0, 1024);
}
