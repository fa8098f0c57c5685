/** tern's entry: parse arguments, answer --help and --version at once, else load and run the app. */
import { acpArgs, parseCliArgs } from "./src/cli/args.ts";
import { HELP_TEXT } from "./src/cli/help_text.ts";
import { VERSION } from "./src/cli/version.ts";
import { COMMIT } from "./src/cli/build_info.ts";
import { terminalSafe } from "./src/cli/render/terminal_safe.ts";

/** Run before exit: MCP servers are stopped. */
const atExit: (() => Promise<void>)[] = [];

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "sessions") {
    const { runSessionsCli } = await import("./src/cli/commands/sessions.ts");
    return await runSessionsCli(Deno.realPathSync(Deno.cwd()), argv.slice(1), print);
  }
  if (argv[0] === "config") {
    const { runConfigCli } = await import("./src/cli/commands/config_cli.ts");
    return await runConfigCli(Deno.realPathSync(Deno.cwd()), argv.slice(1), print);
  }
  if (argv[0] === "worktrees") {
    const { runWorktreesCli } = await import("./src/cli/commands/worktrees_cli.ts");
    return await runWorktreesCli(Deno.realPathSync(Deno.cwd()), argv.slice(1), print);
  }
  if (argv[0] === "acp") {
    const args = acpArgs(argv.slice(1));
    if (args.help) return print(HELP_TEXT);
    const { runAcp } = await import("./src/cli/acp/acp_cli.ts");
    return await runAcp(args, atExit);
  }
  const args = parseCliArgs(argv);
  if (args.help) return print(HELP_TEXT);
  if (args.version) return print(`tern ${VERSION} (${COMMIT})`);
  // Everything else is loaded only for a real run: --help and --version answer at once, and without the
  // network on a fresh Deno cache, as no module reachable from here imports an npm package (src/npm.ts).
  const { runApp } = await import("./src/cli/app.ts");
  return await runApp(args, atExit);
}

function print(text: string): number {
  console.log(text);
  return 0;
}

/** Bad usage, a configuration that cannot work, a session that cannot be read: one line, exit code 2. */
function isUserError(error: unknown): error is Error {
  return error instanceof Error &&
    ["UsageError", "ConfigError", "SessionError", "WorktreeError"].includes(error.name);
}

if (import.meta.main) {
  try {
    const code = await main(Deno.args);
    await Promise.all(atExit.map((hook) => hook().catch(() => {})));
    Deno.exit(code);
  } catch (error) {
    if (isUserError(error)) {
      const hint = error.name === "UsageError" ? "\ntry 'tern --help' for usage" : "";
      console.error(`tern: ${terminalSafe(error.message)}${hint}`); // it may quote a project's files
      Deno.exit(2);
    }
    // An npm package Deno could not download (src/npm.ts): one line, exit code 1.
    if (error instanceof Error && error.name === "PackageError") {
      console.error(`tern: ${terminalSafe(error.message)}`);
      if (Deno.env.get("TERN_DEBUG")) console.error(error);
      Deno.exit(1);
    }
    // Anything else is a bug in tern: still one line, never a stack trace (TERN_DEBUG=1 shows it).
    const message = error instanceof Error ? error.message : String(error);
    console.error(`tern: unexpected error: ${message.split("\n")[0]}`);
    if (Deno.env.get("TERN_DEBUG")) console.error(error);
    Deno.exit(1);
  }
}
