/**
 * The one list of protected paths: files and folders that run code later (git hooks and config, CI, shell
 * startup files, direnv), hold secrets (.env), or that tern reads as its own configuration (.tern/, .mcp.json,
 * project memory, skills). The file tools ask before writing them; the shell sandbox mounts them read-only.
 */
import { posix } from "node:path";

const GIT = "git's own data: hooks and config there run code on your next git command";
const CI = "a CI configuration: it runs on push, often with the repository's secrets";
const SHELL_RC = "a shell startup file: it runs in every new shell";
const MEMORY = "project instructions tern puts in the model's system prompt";
const SKILLS = "skills: instructions the model is told to follow";

/** Protected directory names (any path segment), lower case, with why. */
const PROTECTED_DIRS: Record<string, string> = {
  ".git": GIT,
  ".tern": "tern's own data (tool outputs, settings)",
  ".husky": "git hooks (husky): they run on commit and push",
  ".circleci": CI,
  ".buildkite": CI,
  ".ci": CI,
  ".agents": SKILLS,
  ".claude": SKILLS,
};

/** Protected file names (the last segment), lower case, with why. */
const PROTECTED_FILES: Record<string, string> = {
  ".gitlab-ci.yml": CI,
  ".travis.yml": CI,
  "azure-pipelines.yml": CI,
  "bitbucket-pipelines.yml": CI,
  "jenkinsfile": CI,
  ".bashrc": SHELL_RC,
  ".bash_profile": SHELL_RC,
  ".bash_login": SHELL_RC,
  ".bash_logout": SHELL_RC,
  ".profile": SHELL_RC,
  ".zshrc": SHELL_RC,
  ".zshenv": SHELL_RC,
  ".zprofile": SHELL_RC,
  ".zlogin": SHELL_RC,
  ".envrc": "a direnv file: it runs when a shell enters the directory",
  ".mcp.json": "tern's MCP servers: it names commands tern starts",
  "agents.md": MEMORY,
  "claude.md": MEMORY,
};

/**
 * Why writing `relPath` is protected, or undefined when it is not. Matches path segments anywhere below
 * the root (a nested repository's `.git` counts), case-insensitively (macOS and Windows file systems are),
 * after normalising `./`, `..` and backslashes. Protected: `.git/`, `.env` and `.env.*`, `.tern/`, CI files
 * (`.github/workflows/`, `.github/actions/`, `.gitlab-ci.yml`, `.circleci/`, `.ci/`, ...), shell rc files.
 */
export function protectedPathReason(relPath: string): string | undefined {
  const normal = posix.normalize(relPath.replaceAll("\\", "/")).toLowerCase();
  const segments = normal.split("/").filter((segment) => segment !== "" && segment !== ".");
  for (const [i, segment] of segments.entries()) {
    if (Object.hasOwn(PROTECTED_DIRS, segment)) return PROTECTED_DIRS[segment];
    const child = segments[i + 1];
    if (segment === ".github" && (child === "workflows" || child === "actions")) return CI;
  }
  const name = segments.at(-1) ?? "";
  if (name === ".env" || name.startsWith(".env.")) return "an env file: it holds secrets such as API keys";
  return Object.hasOwn(PROTECTED_FILES, name) ? PROTECTED_FILES[name] : undefined;
}

/**
 * The paths below the root that the shell sandbox keeps read-only, relative to the root: the protected
 * folders and files at the top of the project, `.git/config` and `.git/hooks` (the rest of .git stays
 * writable: commits must work), and every `.env*` file at the top. `.tern/tool-outputs` stays writable.
 */
export async function sandboxReadOnlyPaths(root: string): Promise<string[]> {
  const fixed = [
    ".git/config",
    ".git/hooks",
    ".github/workflows",
    ".github/actions",
    ...Object.keys(PROTECTED_DIRS).filter((name) => name !== ".git"),
    ...Object.keys(PROTECTED_FILES).filter((name) => name !== "jenkinsfile" && !name.endsWith(".md")),
    "Jenkinsfile",
    "AGENTS.md",
    "CLAUDE.md",
  ];
  const envFiles: string[] = [];
  try {
    for await (const entry of Deno.readDir(root)) {
      if (entry.isFile && (entry.name === ".env" || entry.name.startsWith(".env."))) {
        envFiles.push(entry.name);
      }
    }
  } catch {
    // an unreadable root: the fixed list still applies
  }
  return [...fixed, ...envFiles.sort()];
}

/** Paths the sandbox guards even when they do not exist yet: a command must not create them either. */
export const SANDBOX_NOT_CREATED = [".envrc", ".mcp.json", ".github/workflows", ".tern"];
