/** The interactive REPL: prompt, slash commands, one task per line, Ctrl-C cancels the running task. */
import type { ApprovalPolicy } from "../agent/approval.ts";
import { PermissionRules } from "../agent/permission_rules.ts";
import { findPrice } from "../config/prices.ts";
import { attachMentions } from "./attachments.ts";
import { SessionStats, statusLine } from "./session_stats.ts";
import { runTask, type TaskResult } from "../agent/loop.ts";
import type { LoopOptions } from "../agent/loop_options.ts";
import { replGate } from "./repl_approval.ts";
import type { LineReader } from "./line_reader.ts";
import { listenForCancel } from "./keys.ts";
import { formatUsage, partialNote, Renderer, type Sink } from "./render.ts";
import { type AppContext, runSlashCommand, type SlashCommand, slashCommands } from "./slash_commands.ts";
import type { Started } from "./start.ts";

export type { Started };

/** What the REPL needs: the loop's options minus what it builds per task and per conversation. */
export interface ReplOptions {
  banner: string[];
  policy: ApprovalPolicy;
  reader: LineReader;
  sink: Sink;
  /** Starts a conversation: at launch and on /clear. */
  startConversation: () => Started;
  loop: Omit<LoopOptions, "onEvent" | "signal" | "approve" | "registry">;
  /** Show a bug's stack (TERN_DEBUG=1). */
  debug?: boolean;
  /** The slash commands besides /help (default: the built-in ones). */
  commands?: SlashCommand[];
  /** The project's permission rules (.tern/settings.json); "always allow" answers add to them. */
  rules?: PermissionRules;
  /** Saves a rule the user chose at the approval prompt; a failure is shown, the rule still holds this session. */
  saveRule?: (rule: string) => Promise<void>;
  /** The conversation to open with (a resumed session); default: a new one. */
  initial?: Started;
  /** Runs before each task is handed to the loop (undo's snapshot of the project). */
  beforeTask?: (current: Started) => Promise<void>;
  /** The run's pieces the session, memory and undo commands use. */
  app?: Omit<AppContext, "runTask" | "ask">;
}

const MODES: ApprovalPolicy[] = ["ask", "edits", "all"];

/** Runs until the user leaves; resolves with the exit code (0). */
export async function runRepl(options: ReplOptions): Promise<number> {
  // On a terminal answers render as markdown; loaded here so headless runs never pay for the parser.
  const markdown = options.sink.isTerminal ? await import("./markdown.ts") : undefined;
  const screen = new Renderer(options.sink, {
    showText: true,
    showReasoning: true,
    showUsage: false, // the status line after each task says it
    useColor: options.sink.isTerminal && !Deno.env.get("NO_COLOR"),
    markdown: markdown && ((md) => new markdown.MarkdownStream(md)),
    width: () => terminalWidth(),
  });
  for (const line of options.banner) screen.print(line, "dim");
  screen.print(
    "/help for commands · Shift+Tab: approval mode · Esc or Ctrl-C cancels a task · Ctrl-D exits",
    "dim",
  );
  let current = options.initial ?? options.startConversation();
  const commands = slashCommands(options.commands);
  const stats = new SessionStats({
    model: options.loop.model,
    contextWindow: options.loop.contextWindow,
    price: findPrice(options.loop.model),
  });
  const approvals = { policy: options.policy, rules: options.rules ?? new PermissionRules() };
  const runLine = async (task: string) => {
    const attached = await attachMentions(task, options.loop.root);
    for (const note of attached.notes) screen.print(note, "dim");
    await runOneTask(attached.task, current, { ...options, ...approvals }, { screen, stats });
    screen.print(statusLine(stats), "dim");
  };
  const slash = {
    app: options.app && { ...options.app, runTask: runLine, ask: (q: string) => options.reader.read(q) },
    get current() {
      return current;
    },
    replace: (next: Started) => {
      current = next;
      stats.reset();
    },
    startConversation: options.startConversation,
    screen,
    stats,
    approvals,
  };
  // Shift+Tab cycles the approval mode; the prompt always shows it.
  const cycle = () => {
    approvals.policy = MODES[(MODES.indexOf(approvals.policy) + 1) % MODES.length];
    return `${approvals.policy} › `;
  };
  try {
    while (true) {
      const input = await options.reader.read(`\n${approvals.policy} › `, { cycle });
      if (input === null) {
        options.sink.write("\n"); // Ctrl-D leaves the cursor after the prompt
        return 0;
      }
      const line = input.trim();
      if (line === "") continue;
      if (line.startsWith("/")) {
        if (await runSlashCommand(line, commands, slash) === "exit") return 0;
        continue;
      }
      await runLine(line);
    }
  } finally {
    screen.dispose();
    options.reader.close();
  }
}

async function runOneTask(
  task: string,
  current: Started,
  options: ReplOptions,
  { screen, stats }: { screen: Renderer; stats: SessionStats },
): Promise<void> {
  const { conversation, registry } = current;
  const controller = new AbortController();
  const cancel = () => {
    if (!controller.signal.aborted) controller.abort();
  };
  // On a terminal, Esc or Ctrl-C cancels (raw keys); the approval prompt takes the keys while it asks.
  const keys = options.sink.isTerminal ? listenForCancel(cancel) : undefined;
  Deno.addSignalListener("SIGINT", cancel);
  try {
    await options.beforeTask?.(current);
    const result = await runTask(conversation, task, {
      ...options.loop,
      registry,
      approve: replGate({
        ...options,
        conversation,
        screen,
        keys,
        cancel,
        useColor: !Deno.env.get("NO_COLOR"),
      }),
      signal: controller.signal,
      onEvent: (event) => {
        stats.handle(event);
        screen.handle(event);
      },
    });
    report(result, screen, options.debug ?? false);
  } finally {
    keys?.stop();
    Deno.removeSignalListener("SIGINT", cancel);
  }
}

function terminalWidth(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

function report(result: TaskResult, screen: Renderer, debug: boolean): void {
  if (result.exitReason === "cancelled") {
    screen.print("Cancelled. The conversation is kept; type the next task.", "yellow");
  } else if (result.error) screen.print(`error: ${result.error}`, "red");
  else if (result.partial) screen.print(partialNote(result.exitReason), "yellow");
  if (debug && result.debug) screen.print(result.debug, "dim");
  if (result.turns > 1) screen.print(`task total: ${formatUsage(result.usage)}`, "dim");
}
