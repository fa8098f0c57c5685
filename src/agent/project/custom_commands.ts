/**
 * Custom slash commands: Markdown files whose body is a prompt, as in Claude Code. The project supplies them
 * in `.tern/commands/` and `.claude/commands/`; the user keeps their own in `$XDG_CONFIG_HOME/tern/commands/`
 * (else `~/.config/tern/commands/`), read only when tern may read there. `review.md` is `/review`; its front
 * matter may give a `description` and an `argument-hint`; `$ARGUMENTS` and `$1`…`$9` in the body take what
 * follows the command. A command is only a prompt: it never grants a permission (`allowed-tools` is not
 * honoured) and runs nothing itself (`!`…`` lines go to the model as written). The front end builds the
 * commands and refuses a name that a built-in command holds.
 */
import { frontMatter } from "./skills.ts";
import {
  type Gathered,
  type MarkdownFile,
  readProjectFolders,
  readUserFolder,
  userConfigDir,
} from "./_markdown_folder.ts";

/** Where the project's command files live, in order of precedence. */
export const PROJECT_COMMAND_DIRS = [".tern/commands", ".claude/commands"];

/** One custom command, as its file describes it. */
export interface CommandDefinition {
  /** Without the slash: `review` for `review.md`. */
  name: string;
  /** One line for /help: the front matter's, else the body's first line. */
  description: string;
  /** What to type after the name, e.g. "[pr-number] [priority]". */
  argumentHint?: string;
  /** The body: the prompt, with its placeholders. */
  template: string;
  /** Where it came from, as shown: ".tern/commands/review.md", "~/.config/tern/commands/x.md". */
  source: string;
  /** What of the file is not honoured (allowed-tools, model, shell lines). */
  notes: string[];
}

/** The commands found, sorted by name, and the files skipped with why. */
export interface FoundCommands {
  commands: CommandDefinition[];
  problems: string[];
  /** The user's own folder, as shown, and whether tern may read it. */
  userDir?: { shown: string; readable: boolean };
}

const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const LIMITS = { maxFiles: 100, maxBytes: 64 * 1024, what: "command files" };

/**
 * The command files the project supplies (its own `.tern/commands` and `.claude/commands`). The one reader
 * of them: the trust decision for what a project supplies gates them here.
 */
export async function projectCommandFiles(root: string): Promise<Gathered> {
  return await readProjectFolders(root, PROJECT_COMMAND_DIRS, LIMITS);
}

/** The user's own command folder for `env`: `$XDG_CONFIG_HOME/tern/commands`, else `~/.config/tern/commands`. */
export function userCommandDir(
  env: Record<string, string | undefined>,
): { path: string; shown: string } | null {
  return userConfigDir(env, "commands");
}

/**
 * Finds the commands of the project and of the user (`userDir`); the project's win on a clash, said once.
 * `project: false` (a project not trusted yet) leaves the project's folders unread.
 */
export async function discoverCommands(
  root: string,
  options: { userDir?: { path: string; shown: string } | null; project?: boolean } = {},
): Promise<FoundCommands> {
  const project = options.project === false ? { files: [], problems: [] } : await projectCommandFiles(root);
  const user = options.userDir
    ? await readUserFolder(options.userDir, LIMITS)
    : { files: [], problems: [], readable: false };
  const found = new Map<string, CommandDefinition>();
  const problems = [...project.problems, ...user.problems];
  for (const file of [...project.files, ...user.files]) {
    const command = parseCommand(file);
    if (typeof command === "string") problems.push(`${file.source}: ${command}`);
    else if (found.has(command.name)) {
      problems.push(
        `${file.source}: /${command.name} is already defined by ${found.get(command.name)!.source}`,
      );
    } else found.set(command.name, command);
  }
  const commands = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const userDir = options.userDir ? { shown: options.userDir.shown, readable: user.readable } : undefined;
  return { commands, problems, ...userDir && { userDir } };
}

/** Parses one command file (front matter optional); a string says why it is not a command. */
export function parseCommand(file: MarkdownFile): CommandDefinition | string {
  const name = file.source.replace(/^.*\//, "").replace(/\.md$/i, "");
  if (!COMMAND_NAME.test(name)) return "the file name must be letters, digits, - and _ (it is the command)";
  const fields = frontMatter(file.text) ?? {};
  const template = file.text.replace(/^\uFEFF?---\r?\n[\s\S]*?\r?\n---[^\n]*(?:\n|$)/, "").trim();
  if (template === "") return "the prompt (the file's body) is empty";
  const notes: string[] = [];
  if (fields["allowed-tools"] !== undefined) {
    notes.push(
      "allowed-tools is not honoured: a command grants no permission, its calls are approved as usual",
    );
  }
  if (fields.model !== undefined) notes.push("model is not honoured: the session's model runs it");
  if (/(^|\s)!`/.test(template)) notes.push("!`…` lines are not run: the model reads them as written");
  const description = oneLine(fields.description ?? "") ||
    oneLine(template.split("\n")[0].replace(/^#+\s*/, "")).slice(0, 100);
  const hint = oneLine(fields["argument-hint"] ?? "");
  return { name, description, ...hint && { argumentHint: hint }, template, source: file.source, notes };
}

/**
 * The prompt of a command run with `args` (the text after its name): `$ARGUMENTS` is all of it, `$1`…`$9`
 * its words (quotes group words; a missing one is empty). A body with no placeholder gets the arguments
 * appended as `ARGUMENTS: …`, so nothing typed is lost.
 */
export function expandCommand(template: string, args: string): string {
  const text = args.trim();
  if (!/\$(ARGUMENTS|[1-9])/.test(template)) {
    return text === "" ? template : `${template}\n\nARGUMENTS: ${text}`;
  }
  const words = splitArguments(text);
  return template.replace(/\$(ARGUMENTS|[1-9])/g, (_, key: string) => {
    return key === "ARGUMENTS" ? text : words[Number(key) - 1] ?? "";
  });
}

/** The words of `text`: runs of non-space, or "double" / 'single' quoted groups without their quotes. */
export function splitArguments(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]);
}

function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  return text.replace(/[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, " ").replace(/\s+/g, " ")
    .trim();
}
