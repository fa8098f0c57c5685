/** tern's command-line options as strict_parse.ts reads them: one row an option. */

/** Every option tern knows, with its type and short name; a new flag is one row here and one setter in args.ts. */
export const OPTIONS = {
  print: { type: "string", short: "p" },
  output: { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  api: { type: "string" },
  "require-tools": { type: "string" },
  fallback: { type: "string" },
  approve: { type: "string" },
  mode: { type: "string" },
  sandbox: { type: "string" },
  "max-turns": { type: "string" },
  "token-budget": { type: "string" },
  "time-limit": { type: "string" },
  "trust-project-env": { type: "boolean" },
  "trust-project": { type: "boolean" },
  continue: { type: "boolean", short: "c" },
  fork: { type: "boolean" },
  resume: { type: "string", short: "r" },
  "no-session": { type: "boolean" },
  "context-window": { type: "string" },
  "trust-project-mcp": { type: "boolean" },
  "allow-local-fetch": { type: "boolean" },
  "input-format": { type: "string" },
  "approval-timeout": { type: "string" },
  "notify-command": { type: "string" },
  worktree: { type: "string", short: "w" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** Every option's names as typed: `--print`, `-p`, ... */
export const KNOWN_OPTIONS: readonly string[] = Object.entries(OPTIONS).flatMap(([name, option]) => [
  `--${name}`,
  ...("short" in option ? [`-${option.short}`] : []),
]);
