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
import { headlessTask } from "./src/cli/headless_input.ts";
import { adviseOnLlmProblem } from "./src/cli/errors.ts";
import { runRepl } from "./src/cli/repl.ts";
import { createLineReader } from "./src/cli/line_reader.ts";
import { streamSink } from "./src/cli/render.ts";
import { PermissionRules } from "./src/agent/permission_rules.ts";
import { loadProjectSettings, saveRule } from "./src/config/project_settings.ts";
import { PromptHistory } from "./src/cli/prompt_history.ts";
import { createCompleter } from "./src/cli/completion.ts";
import { slashCommands } from "./src/cli/slash_commands.ts";

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (args.help) return print(HELP_TEXT);
  if (args.version) return print(`tern ${VERSION}`);
  const root = Deno.realPathSync(Deno.cwd());
  const config = await loadConfig({ args, env: Deno.env.toObject(), root });
  for (const warning of config.warnings) console.error(`tern: ${warning}`);
  // Permission rules from .tern/settings.json: allow and deny, for the REPL and headless runs alike.
  const settings = await loadProjectSettings(root);
  for (const warning of settings.warnings) console.error(`tern: ${warning}`);
  const rules = new PermissionRules(settings.permissions);
  for (const rule of rules.invalid) {
    console.error(`tern: .tern/settings.json: "${rule}" is not a rule like "edit_file(src/**)"`);
  }
  const client = createClient({ api: config.api, baseUrl: config.baseUrl, apiKey: config.apiKey });
  const preset = findProvider(config.provider);
  const sandbox = await sandboxStatus(config.sandbox);
  const shell = { sandbox: config.sandbox, secrets: config.apiKey ? [config.apiKey] : [] };
  // One conversation and the tools built for it: they share its memory of the files the model has read.
  const startConversation = () => {
    const files = createFileTracker();
    const registry = createRegistry(builtinTools({ files, shell }));
    const conversation = new Conversation({ systemPrompt: systemPrompt(root, registry.tools()), files });
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
    const { task, note } = await headlessTask(config.prompt); // `-p -`, or piped input attached
    if (note) console.error(`tern: ${note}`);
    return await runHeadless({
      task,
      output: config.output,
      conversation,
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
    rules,
    saveRule: (rule) => saveRule(root, "allow", rule),
    reader: createLineReader({
      history: await PromptHistory.load(root),
      complete: createCompleter(() => slashCommands().flatMap((c) => [c.name, ...(c.aliases ?? [])]), root),
    }),
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
    Deno.exit(await main(Deno.args));
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
