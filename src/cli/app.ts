/**
 * The run behind tern's entry: the configuration, the conversation (new or resumed), the tools, MCP and
 * skills, then one headless task or the REPL. Loaded only once the arguments asked for a run.
 */
import { type CliArgs, UsageError, VERSION } from "./args.ts";
import { type Config, ConfigError, loadConfig, switchProvider } from "../config/config.ts";
import { createApprovalGate } from "../agent/approval.ts";
import { loadMemory } from "../agent/memory.ts";
import { Snapshots } from "../agent/snapshots.ts";
import { createClient } from "../llm/client.ts";
import { knownContextWindow } from "../config/context_windows.ts";
import { chooseSession } from "./commands/sessions.ts";
import { snapshotBeforeTask } from "./commands/undo.ts";
import { conversationStarter, type Started } from "./start.ts";
import { sandboxStatus } from "../tools/shell/sandbox.ts";
import { sandboxLine } from "./sandbox_words.ts";
import { findProvider, PROVIDERS } from "../config/providers.ts";
import { unknownTools } from "../agent/required_tools.ts";
import { modelCommand, parseModelArgs } from "./model_command.ts";
import { BUILTIN_COMMANDS, slashCommands } from "./slash_commands.ts";
import { builtinTools } from "../tools/builtin.ts";
import { createRegistry } from "../tools/registry.ts";
import { runHeadless } from "./headless.ts";
import { headlessTask } from "./headless_input.ts";
import { adviseOnLlmProblem } from "./errors.ts";
import { runRepl } from "./repl.ts";
import { askOnTerminal, checkProjectEndpoint } from "./endpoint_trust.ts";
import { createLineReader } from "./line_reader.ts";
import { streamSink } from "./render.ts";
import { askTrustOnTerminal, startMcp } from "./mcp_startup.ts";
import { mcpTools } from "../tools/mcp/adapter.ts";
import { discoverSkills } from "../agent/skills.ts";
import { mcpCommand } from "./slash_mcp.ts";
import { skillsCommand } from "./slash_skills.ts";
import { PermissionRules } from "../agent/permission_rules.ts";
import { loadProjectSettings, saveRule } from "../config/project_settings.ts";
import { PromptHistory } from "./prompt_history.ts";
import { createCompleter } from "./completion.ts";

/** Runs tern with parsed `args`; `atExit` collects what must be stopped before the process exits. */
export async function runApp(args: CliArgs, atExit: (() => Promise<void>)[]): Promise<number> {
  const root = Deno.realPathSync(Deno.cwd());
  let config = await loadConfig({ args, env: Deno.env.toObject(), root });
  for (const warning of config.warnings) console.error(`tern: ${warning}`);
  // Started now, awaited when needed: the sandbox probe (a bwrap start) and the project's own files.
  const probing = sandboxStatus(config.sandbox);
  const reading = Promise.all([loadProjectSettings(root), discoverSkills(root), loadMemory(root)]);
  // Their failures surface where they are awaited; until then they must not count as unhandled.
  for (const pending of [probing, reading]) pending.catch(() => {});
  const interactive = config.prompt === undefined && Deno.stdin.isTerminal();
  await checkProjectEndpoint(config, {
    trusted: args.trustProjectEnv ?? false,
    ask: interactive ? askOnTerminal : undefined,
  });
  // Permission rules from .tern/settings.json: allow and deny, for the REPL and headless runs alike.
  const [settings, { skills, problems: skillProblems }, memory] = await reading;
  for (const warning of settings.warnings) console.error(`tern: ${warning}`);
  const rules = new PermissionRules(settings.permissions);
  for (const rule of rules.invalid) {
    console.error(`tern: .tern/settings.json: "${rule}" is not a rule like "edit_file(src/**)"`);
  }
  const shell = { sandbox: config.sandbox, secrets: config.apiKey ? [config.apiKey] : [] };
  const web = { allowLocal: args.allowLocalFetch === true };
  // Ecosystem: skills go into the system prompt; MCP servers start (if trusted) and add their tools.
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
    memory,
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
  const sandbox = await probing;
  if (config.prompt !== undefined) {
    // Headless has no banner: a sandbox that cannot start is still said, in one line.
    if (!sandbox.active && config.sandbox !== "off") console.error(`tern: ${sandboxLine(sandbox)}`);
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
    sandboxLine(sandbox),
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
    client: createClient({
      api,
      baseUrl,
      apiKey,
      fetchTimeoutMs: config.firstByteTimeoutMs,
      // The preset's rule for sending reasoning back; a custom endpoint gets "auto" (sent once reasoning appears).
      reasoningEcho: custom ? undefined : preset?.reasoningEcho,
    }),
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
