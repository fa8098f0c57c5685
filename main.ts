/** tern's entry: parse arguments → build the configuration → run the REPL or one headless task. */
import { HELP_TEXT, parseCliArgs, UsageError, VERSION } from "./src/cli/args.ts";
import { type Config, ConfigError, loadConfig, switchProvider } from "./src/config/config.ts";
import { createApprovalGate } from "./src/agent/approval.ts";
import { loadMemory } from "./src/agent/memory.ts";
import { SessionError } from "./src/agent/session.ts";
import { Snapshots } from "./src/agent/snapshots.ts";
import { createClient } from "./src/llm/client.ts";
import { knownContextWindow } from "./src/config/context_windows.ts";
import { chooseSession, runSessionsCli } from "./src/cli/commands/sessions.ts";
import { snapshotBeforeTask } from "./src/cli/commands/undo.ts";
import { conversationStarter, type Started } from "./src/cli/start.ts";
import { sandboxStatus } from "./src/tools/shell/sandbox.ts";
import { findProvider, PROVIDERS } from "./src/config/providers.ts";
import { unknownTools } from "./src/agent/required_tools.ts";
import { modelCommand, parseModelArgs } from "./src/cli/model_command.ts";
import { BUILTIN_COMMANDS } from "./src/cli/slash_commands.ts";
import { builtinTools } from "./src/tools/builtin.ts";
import { createRegistry } from "./src/tools/registry.ts";
import { runHeadless } from "./src/cli/headless.ts";
import { headlessTask } from "./src/cli/headless_input.ts";
import { adviseOnLlmProblem } from "./src/cli/errors.ts";
import { runRepl } from "./src/cli/repl.ts";
import { askOnTerminal, checkProjectEndpoint } from "./src/cli/endpoint_trust.ts";
import { createLineReader } from "./src/cli/line_reader.ts";
import { streamSink } from "./src/cli/render.ts";
import { askTrustOnTerminal, startMcp } from "./src/cli/mcp_startup.ts";
import { mcpTools } from "./src/tools/mcp/adapter.ts";
import { discoverSkills } from "./src/agent/skills.ts";
import { mcpCommand } from "./src/cli/slash_mcp.ts";
import { skillsCommand } from "./src/cli/slash_skills.ts";
import { COMMIT } from "./src/cli/build_info.ts";

/** Run before exit: MCP servers are stopped. */
const atExit: (() => Promise<void>)[] = [];
import { PermissionRules } from "./src/agent/permission_rules.ts";
import { loadProjectSettings, saveRule } from "./src/config/project_settings.ts";
import { PromptHistory } from "./src/cli/prompt_history.ts";
import { createCompleter } from "./src/cli/completion.ts";
import { slashCommands } from "./src/cli/slash_commands.ts";

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "sessions") {
    return await runSessionsCli(Deno.realPathSync(Deno.cwd()), argv.slice(1), print);
  }
  const args = parseCliArgs(argv);
  if (args.help) return print(HELP_TEXT);
  if (args.version) return print(`tern ${VERSION} (${COMMIT})`);
  const root = Deno.realPathSync(Deno.cwd());
  let config = await loadConfig({ args, env: Deno.env.toObject(), root });
  for (const warning of config.warnings) console.error(`tern: ${warning}`);
  const interactive = config.prompt === undefined && Deno.stdin.isTerminal();
  await checkProjectEndpoint(config, {
    trusted: args.trustProjectEnv ?? false,
    ask: interactive ? askOnTerminal : undefined,
  });
  // Permission rules from .tern/settings.json: allow and deny, for the REPL and headless runs alike.
  const settings = await loadProjectSettings(root);
  for (const warning of settings.warnings) console.error(`tern: ${warning}`);
  const rules = new PermissionRules(settings.permissions);
  for (const rule of rules.invalid) {
    console.error(`tern: .tern/settings.json: "${rule}" is not a rule like "edit_file(src/**)"`);
  }
  const sandbox = await sandboxStatus(config.sandbox);
  const shell = { sandbox: config.sandbox, secrets: config.apiKey ? [config.apiKey] : [] };
  const web = { allowLocal: args.allowLocalFetch === true };
  // Ecosystem: skills go into the system prompt; MCP servers start (if trusted) and add their tools.
  const { skills, problems: skillProblems } = await discoverSkills(root);
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
  const starter = conversationStarter({
    root,
    shell,
    web,
    extraTools: () => mcpTools(mcp.hub?.servers ?? []).tools,
    skills,
    memory: await loadMemory(root),
    meta: { tern: VERSION, provider: config.provider, model: config.model, api: config.api },
    save: !args.noSession,
  });
  if (config.requireTools) {
    checkRequiredTools(config.requireTools, createRegistry(builtinTools({ shell })).specs());
  }
  const first = await firstConversation(root, args, starter, config.prompt !== undefined);
  const debug = Boolean(Deno.env.get("TERN_DEBUG"));
  const fields = (chosen: Config) => modelFields(chosen, args.contextWindow);
  // Mutable: /model replaces the model fields in place, and each REPL task reads them afresh.
  const loop = {
    ...fields(config),
    fallback: args.fallback === undefined ? undefined : await fallbackModel(config, args.fallback),
    root,
    maxTurns: config.maxTurns,
    tokenBudget: config.tokenBudget,
    timeLimitMs: config.timeLimitMs,
    requireTools: config.requireTools,
  };
  if (config.prompt !== undefined) {
    // Headless has no banner: a sandbox that cannot start is still said, in one line.
    if (!sandbox.active && config.sandbox !== "off") console.error(`tern: ${sandbox.reason}`);
    const controller = new AbortController();
    // SIGINT/SIGTERM cancel the task; the loop still ends it cleanly (exit 130, json result printed).
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, () => controller.abort());
    }
    const { conversation, registry, session } = first;
    const { task, note } = await headlessTask(config.prompt); // `-p -`, or piped input attached
    if (note) console.error(`tern: ${note}`);
    return await runHeadless({
      task,
      output: config.output,
      conversation,
      sessionId: session?.id,
      stdout: streamSink(Deno.stdout),
      stderr: streamSink(Deno.stderr),
      loop: {
        ...loop,
        registry,
        signal: controller.signal,
        approve: createApprovalGate(config.approve, undefined, { rules }),
      },
      debug,
    });
  }
  const banner = [
    `tern ${VERSION} · ${config.model} via ${config.label} · approval: ${config.approve}`,
    `project root: ${root}`,
    sandbox.reason,
    ...(config.notice ? [config.notice] : []),
    sessionLine(first),
  ];
  const snapshots = await Snapshots.open(root);
  if (snapshots === null) {
    banner.push("git not found: /undo can rewind the conversation but not restore files");
  }
  const commands = [
    ...BUILTIN_COMMANDS,
    mcpCommand(mcp.hub, mcp.notes),
    skillsCommand(skills, skillProblems),
    modelCommand({
      presets: PROVIDERS,
      current: () => ({
        provider: config.provider,
        label: config.label,
        model: config.model,
        api: config.api,
      }),
      switchTo: async (choice) => {
        config = await switchProvider(config, choice, Deno.env.toObject());
        Object.assign(loop, fields(config));
        return { provider: config.provider, label: config.label, model: config.model, api: config.api };
      },
    }),
  ];
  return await runRepl({
    banner,
    initial: first,
    startConversation: starter.start,
    beforeTask: async (current) => {
      if (snapshots) await snapshotBeforeTask(current.conversation, snapshots);
    },
    app: { root, starter, snapshots, loop },
    debug,
    policy: config.approve,
    rules,
    saveRule: (rule) => saveRule(root, "allow", rule),
    reader: createLineReader({
      history: await PromptHistory.load(root),
      complete: createCompleter(
        () => slashCommands(commands).flatMap((c) => [c.name, ...(c.aliases ?? [])]),
        root,
      ),
    }),
    sink: streamSink(Deno.stdout),
    loop,
    commands,
  });
}

/** The conversation to open with: a resumed session (-c, -r) or a new one. */
async function firstConversation(
  root: string,
  args: { continue?: boolean; resume?: string },
  starter: ReturnType<typeof conversationStarter>,
  headless: boolean,
): Promise<Started> {
  if (!args.continue && args.resume === undefined) return starter.start();
  const ask = headless ? undefined : async (list: string[]) => {
    console.error(list.join("\n"));
    const reader = createLineReader();
    try {
      return await reader.read("session number or id: ");
    } finally {
      reader.close();
    }
  };
  const loaded = await chooseSession(root, args, ask);
  for (const repair of loaded.repairs) console.error(`tern: session ${loaded.header.id}: ${repair}`);
  return starter.resume(loaded);
}

function sessionLine({ conversation, session }: Started): string {
  if (!session) return "session: not saved (--no-session)";
  const prompts = conversation.entries.filter((entry) => entry.kind === "user").length;
  return prompts > 0 ? `session: ${session.id} (resumed, ${prompts} prompt(s))` : `session: ${session.id}`;
}

/** The loop's fields that follow the chosen provider and model: the client, and the words for failures. */
function modelFields(config: Config, contextWindow?: number) {
  const preset = findProvider(config.provider);
  const custom = config.label !== preset?.label;
  const { api, baseUrl, apiKey } = config;
  return {
    client: createClient({ api, baseUrl, apiKey, fetchTimeoutMs: config.firstByteTimeoutMs }),
    model: config.model,
    contextWindow: contextWindow ?? knownContextWindow(config.model) ?? config.contextWindow,
    provider: {
      provider: config.label,
      // A custom endpoint's key is TERN_API_KEY, never the preset's own variable.
      keyEnv: custom ? null : preset?.keyEnv ?? null,
      advise: adviseOnLlmProblem, // failures name the flags and variables that fix them
    },
  };
}

/** The `--fallback` model, resolved like /model (its preset's endpoint, wire and key); bad ones exit 2. */
async function fallbackModel(config: Config, value: string) {
  const choice = parseModelArgs([value]);
  if (choice === undefined) {
    throw new UsageError(
      `--fallback must be PROVIDER or PROVIDER/MODEL, e.g. anthropic/claude-sonnet-4-5 (got '${value}')`,
    );
  }
  try {
    const target = await switchProvider(config, choice, Deno.env.toObject());
    const { client, model } = modelFields(target);
    return { client, model, label: `${target.provider}/${target.model}` };
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`--fallback: ${error.message}`);
    throw error;
  }
}

/** `--require-tools` names a tool that does not exist: bad usage (exit 2), naming the known tools. */
function checkRequiredTools(required: string[], tools: { name: string }[]): void {
  const known = tools.map((tool) => tool.name);
  const unknown = unknownTools(required, known);
  if (unknown.length === 0) return;
  throw new UsageError(
    `--require-tools names unknown tool(s) ${unknown.join(", ")}; known tools: ${known.join(", ")}`,
  );
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
    if (error instanceof ConfigError || error instanceof SessionError) {
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
