/**
 * The one list of protected paths: files and folders that run code later (git hooks and config, CI, shell
 * startup files, direnv), hold secrets (.env), or that tern reads as its own configuration (.tern/, .mcp.json,
 * project memory, skills). The file tools ask before writing them; the shell sandbox mounts them read-only.
 */
import { posix } from "../fs/path.ts";

const GIT = "git's own data: hooks and config there run code on your next git command";
const CI = "a CI configuration: it runs on push, often with the repository's secrets";
const SHELL_RC = "a shell startup file: it runs in every new shell";
const MEMORY = "project instructions tern puts in the model's system prompt";
const SKILLS = "skills: instructions the model is told to follow";
const FORGE = "the forge's configuration (CI workflows, actions, templates that run or steer automation)";

/** Protected directory names (any path segment), lower case, with why. */
const PROTECTED_DIRS: Record<string, string> = {
  ".git": GIT,
  ".tern": "tern's own data (tool outputs, settings)",
  ".husky": "git hooks (husky): they run on commit and push",
  ".circleci": CI,
  ".buildkite": CI,
  ".ci": CI,
  ".gitlab": FORGE,
  ".devcontainer": "a dev container definition: editors run its commands when the project opens",
  ".agents": SKILLS,
  ".claude":
    "Claude Code's settings (hooks, permission rules, a status line command), skills, agents and commands",
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
  ".pre-commit-config.yaml": "pre-commit hooks: they run on every commit",
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
    if (segment === ".vscode" && child === "tasks.json") return "VS Code tasks: they run commands";
  }
  const name = segments.at(-1) ?? "";
  if (name === ".env" || name.startsWith(".env.")) return "an env file: it holds secrets such as API keys";
  return Object.hasOwn(PROTECTED_FILES, name) ? PROTECTED_FILES[name] : undefined;
}

/** Shell startup files: what a shell runs at its next start, in the project and in a home folder alike. */
export const SHELL_STARTUP_FILES = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
] as const;

/**
 * Top-level names protected inside the shell sandbox (relative to the root): read-only where they exist,
 * not creatable where they do not, and compared before and after every command. `.git` itself stays
 * writable (commits must work) but its config, hooks and the files that redirect them are protected.
 */
export const SANDBOX_PROTECTED = {
  /** Folders kept whole. */
  dirs: [
    ".github",
    ".gitlab",
    ".husky",
    ".circleci",
    ".buildkite",
    ".ci",
    ".devcontainer",
    ".claude",
    ".agents",
    ".tern",
  ],
  /** Files (plus every `.env` and `.env.*` at the top, found when the command starts). */
  files: [
    ".envrc",
    ".mcp.json",
    "AGENTS.md",
    "CLAUDE.md",
    ".env",
    ".gitlab-ci.yml",
    ".travis.yml",
    "azure-pipelines.yml",
    "bitbucket-pipelines.yml",
    "Jenkinsfile",
    ".pre-commit-config.yaml",
    ".vscode/tasks.json",
    ...SHELL_STARTUP_FILES,
  ],
  /** Inside `.git` (when it is a folder): what git reads as code or as a pointer to its config. */
  git: ["config", "hooks", "commondir", "config.worktree"],
  /** Parents of protected names that stay writable but must not be renamed away. */
  pinned: [".git", ".vscode"],
} as const;

/** True for `.env` and `.env.*`, the names of env files at the top. */
export function isEnvFileName(name: string): boolean {
  return name === ".env" || name.startsWith(".env.");
}
