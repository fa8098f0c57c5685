/** tern's entry: parse arguments → build the configuration → run the REPL or one headless task. */
import { HELP_TEXT, parseCliArgs, UsageError, VERSION } from "./src/cli/args.ts";
import { ConfigError, loadConfig } from "./src/config/config.ts";
import { createApprovalGate } from "./src/agent/approval.ts";
import { Conversation } from "./src/agent/conversation.ts";
import { systemPrompt } from "./src/agent/prompt.ts";
import { createClient } from "./src/llm/client.ts";
import { builtinTools } from "./src/tools/builtin.ts";
import { createRegistry } from "./src/tools/registry.ts";
import { createFileTracker } from "./src/tools/fs/file_tracker.ts";
import { sandboxStatus } from "./src/tools/shell/sandbox.ts";
import { findProvider } from "./src/config/providers.ts";
import { runHeadless } from "./src/cli/headless.ts";
import { adviseOnLlmProblem } from "./src/cli/errors.ts";
import { runRepl } from "./src/cli/repl.ts";
import { createLineReader } from "./src/cli/line_reader.ts";
import { streamSink } from "./src/cli/render.ts";
import { askTrustOnTerminal, startMcp } from "./src/cli/mcp_startup.ts";
import { mcpTools } from "./src/tools/mcp/adapter.ts";
import { discoverSkills } from "./src/agent/skills.ts";
import { BUILTIN_COMMANDS } from "./src/cli/slash_commands.ts";
import { mcpCommand } from "./src/cli/slash_mcp.ts";
import { skillsCommand } from "./src/cli/slash_skills.ts";
import { COMMIT } from "./src/cli/build_info.ts";

/** Run before exit: MCP servers are stopped. */
const atExit: (() => Promise<void>)[] = [];

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (args.help) return print(HELP_TEXT);
  if (args.version) return print(`tern ${VERSION} (${COMMIT})`);
  const root = Deno.realPathSync(Deno.cwd());
  const config = await loadConfig({ args, env: Deno.env.toObject(), root });
  for (const warning of config.warnings) console.error(`tern: ${warning}`);
  const client = createClient({ api: config.api, baseUrl: config.baseUrl, apiKey: config.apiKey });
  const preset = findProvider(config.provider);
  const sandbox = await sandboxStatus(config.sandbox);
  const shell = { sandbox: config.sandbox, secrets: config.apiKey ? [config.apiKey] : [] };
  const web = { allowLocal: args.allowLocalFetch === true };
  // Ecosystem: skills go into the system prompt; MCP servers start (if trusted) and add their tools.
  const { skills, problems: skillProblems } = await discoverSkills(root);
  const interactive = config.prompt === undefined && Deno.stdin.isTerminal();
  const mcp = await startMcp({
    root,
    env: Deno.env.toObject(),
    sandbox: config.sandbox,
    trustFlag: args.trustProjectMcp === true,
    ask: interactive ? askTrustOnTerminal : undefined,
  });
  if (mcp.hub) atExit.push(() => mcp.hub!.close());
  for (const note of mcp.notes) console.error(`tern: ${note}`);
  // One conversation and the tools built for it: they share its memory of the files the model has read.
  const startConversation = () => {
    const files = createFileTracker();
    const remote = mcpTools(mcp.hub?.servers ?? []).tools;
    const registry = createRegistry([...builtinTools({ files, shell, web }), ...remote]);
    const prompt = systemPrompt(root, registry.tools(), { skills });
    const conversation = new Conversation({ systemPrompt: prompt, files });
    return { conversation, registry };
  };
  const debug = Boolean(Deno.env.get("TERN_DEBUG"));
  const loop = {
    client,
    model: config.model,
    root,
    maxTurns: config.maxTurns,
    tokenBudget: config.tokenBudget,
    timeLimitMs: config.timeLimitMs,
    contextWindow: config.contextWindow,
    provider: {
      provider: preset?.label ?? config.provider,
      keyEnv: preset?.keyEnv ?? null,
      advise: adviseOnLlmProblem, // failures name the flags and variables that fix them
    },
  };
  if (config.prompt !== undefined) {
    const controller = new AbortController();
    // SIGINT/SIGTERM cancel the task; the loop still ends it cleanly (exit 130, json result printed).
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, () => controller.abort());
    }
    const { conversation, registry } = startConversation();
    return await runHeadless({
      task: config.prompt,
      output: config.output,
      conversation,
      stdout: streamSink(Deno.stdout),
      stderr: streamSink(Deno.stderr),
      loop: { ...loop, registry, signal: controller.signal, approve: createApprovalGate(config.approve) },
      debug,
    });
  }
  const banner = [
    `tern ${VERSION} · ${config.model} via ${config.provider} · approval: ${config.approve}`,
    `project root: ${root}`,
    sandbox.reason,
    ...(config.notice ? [config.notice] : []),
  ];
  return await runRepl({
    banner,
    startConversation,
    debug,
    policy: config.approve,
    reader: createLineReader(),
    commands: [...BUILTIN_COMMANDS, mcpCommand(mcp.hub, mcp.notes), skillsCommand(skills, skillProblems)],
    sink: streamSink(Deno.stdout),
    loop,
  });
}

function print(text: string): number {
  console.log(text);
  return 0;
}

if (import.meta.main) {
  try {
    const code = await main(Deno.args);
    await Promise.all(atExit.map((hook) => hook().catch(() => {})));
    Deno.exit(code);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`tern: ${error.message}\ntry 'tern --help' for usage`);
      Deno.exit(2);
    }
    if (error instanceof ConfigError) {
      console.error(`tern: ${error.message}`);
      Deno.exit(2);
    }
    // Anything else is a bug in tern: still one line, never a stack trace (TERN_DEBUG=1 shows it).
    const message = error instanceof Error ? error.message : String(error);
    console.error(`tern: unexpected error: ${message}`);
    if (Deno.env.get("TERN_DEBUG")) console.error(error);
    Deno.exit(1);
  }
}
