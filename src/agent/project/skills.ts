/**
 * Agent Skills: folders holding a SKILL.md whose front matter gives a `name` and a `description`. Only that
 * list goes into the system prompt (sorted, so the prompt stays byte-stable); the model reads a skill's body
 * and files on demand with the normal tools.
 */

/** Where skills live, in order of precedence (the first folder wins when two hold the same name). */
export const SKILL_DIRS = [".tern/skills", ".agents/skills", ".claude/skills"];

/** One skill: its name and description from the front matter, and its SKILL.md relative to the root. */
export interface Skill {
  name: string;
  description: string;
  path: string;
}

/** The Agent Skills naming rule: lower-case letters, digits and hyphens. */
const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_DESCRIPTION = 1024;
const MAX_SKILL_FILE = 256 * 1024;

/** Finds the project's skills, sorted by name; folders and files that are not plain (symlinks too) are skipped. */
export async function discoverSkills(root: string): Promise<{ skills: Skill[]; problems: string[] }> {
  const found = new Map<string, Skill>();
  const problems: string[] = [];
  for (const dir of SKILL_DIRS) {
    if (!(await isPlainDir(root, dir))) continue;
    const names: string[] = [];
    for await (const entry of Deno.readDir(`${root}/${dir}`)) if (entry.isDirectory) names.push(entry.name);
    for (const folder of names.sort()) {
      const path = `${dir}/${folder}/SKILL.md`;
      const skill = await readSkill(root, path);
      if (typeof skill === "string") problems.push(`${path}: ${skill}`);
      else if (!found.has(skill.name)) found.set(skill.name, skill);
    }
  }
  const skills = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, problems };
}

async function isPlainDir(root: string, rel: string): Promise<boolean> {
  let path = root;
  for (const part of rel.split("/")) {
    path += `/${part}`;
    const info = await Deno.lstat(path).catch(() => undefined);
    if (!info?.isDirectory) return false;
  }
  return true;
}

async function readSkill(root: string, path: string): Promise<Skill | string> {
  const info = await Deno.lstat(`${root}/${path}`).catch(() => undefined);
  if (info === undefined) return "missing";
  if (!info.isFile) return "not a regular file";
  if (info.size > MAX_SKILL_FILE) return "too large";
  const fields = frontMatter(await Deno.readTextFile(`${root}/${path}`));
  if (fields === undefined) return "no front matter (--- name: ... description: ... ---)";
  const name = fields.name ?? "";
  const description = oneLine(fields.description ?? "");
  if (!SKILL_NAME.test(name)) return "name must be lower-case letters, digits and hyphens";
  if (description === "") return "description is missing";
  return { name, description: description.slice(0, MAX_DESCRIPTION), path };
}

/** The `key: value` lines of a leading `---` block (plain or quoted scalars, and `>`/`|` blocks). */
export function frontMatter(text: string): Record<string, string> | undefined {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  if (!match) return undefined;
  const fields: Record<string, string> = {};
  let block: string | undefined;
  for (const line of match[1].split(/\r?\n/)) {
    const pair = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (pair) {
      const value = pair[2].trim();
      block = /^[>|][-+]?$/.test(value) ? pair[1] : undefined;
      fields[pair[1]] = block ? "" : unquote(value);
    } else if (block && /^\s+\S/.test(line)) fields[block] = `${fields[block]} ${line.trim()}`.trim();
  }
  return fields;
}

function unquote(value: string): string {
  if (/^".*"$/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value.slice(1, -1);
    }
  }
  return /^'.*'$/.test(value) ? value.slice(1, -1).replaceAll("''", "'") : value;
}

function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  return text.replace(/[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, " ").replace(/\s+/g, " ")
    .trim();
}

/** The system prompt's lines for `skills` (none when there are none). */
export function skillsPromptLines(skills: readonly Skill[]): string[] {
  if (skills.length === 0) return [];
  return [
    "",
    "Skills (instructions for particular tasks: when one fits, read its SKILL.md with read_file and follow it):",
    ...skills.map((skill) => `- ${skill.name}: ${skill.description} (${skill.path})`),
  ];
}
