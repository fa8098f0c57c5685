/** The interactive REPL: prompt, slash commands, one task per line, Ctrl-C cancels the running task. */
import {
  type ApprovalPolicy,
  ApprovalSession,
  type AskHuman,
  createApprovalGate,
} from "../agent/approval.ts";
import { type LoopOptions, runTask } from "../agent/loop.ts";
import type { Message } from "../llm/types.ts";
import { ChangeTracker, terminalAsker, withChangeCapture } from "./approve.ts";
import type { LineReader } from "./line_reader.ts";
import { listenForCancel } from "./keys.ts";
import { formatUsage, partialNote, Renderer, type Sink } from "./render.ts";

/** What the REPL needs: the loop's options minus what it builds per task. */
export interface ReplOptions {
  banner: string[];
  systemPrompt: string;
  policy: ApprovalPolicy;
  reader: LineReader;
  sink: Sink;
  loop: Omit<LoopOptions, "onEvent" | "signal" | "approve">;
}

const HELP = [
  "Type a task and press Enter. While a task runs, Ctrl-C cancels it.",
  "  /help   this help",
  "  /clear  start a new conversation (forget the history)",
  "  /exit   leave (also /quit, Ctrl-D, or Ctrl-C twice on an empty prompt)",
];

/** Runs until the user leaves; resolves with the exit code (0). */
export async function runRepl(options: ReplOptions): Promise<number> {
  const screen = new Renderer(options.sink, {
    showText: true,
    showReasoning: true,
    useColor: options.sink.isTerminal,
  });
  for (const line of options.banner) screen.print(line, "dim");
  screen.print("/help for commands · Ctrl-C cancels a running task · Ctrl-D exits", "dim");
  const history: Message[] = [{ role: "system", content: options.systemPrompt }];
  // Both live as long as the REPL: "don't ask again" holds for the session, across tasks and /clear.
  const approvals = { session: new ApprovalSession(), changes: new ChangeTracker(options.loop.root) };
  try {
    while (true) {
      const input = await options.reader.read("\n› ");
      if (input === null) {
        options.sink.write("\n"); // Ctrl-D leaves the cursor after the prompt
        return 0;
      }
      const line = input.trim();
      if (line === "") continue;
      if (line.startsWith("/")) {
        if (runSlashCommand(line, history, options, screen) === "exit") return 0;
        continue;
      }
      await runOneTask(line, history, options, { screen, ...approvals });
    }
  } finally {
    screen.dispose();
    options.reader.close();
  }
}

function runSlashCommand(
  line: string,
  history: Message[],
  options: ReplOptions,
  screen: Renderer,
): "exit" | "continue" {
  const command = line.split(/\s+/)[0];
  if (command === "/exit" || command === "/quit") return "exit";
  if (command === "/help") HELP.forEach((text) => screen.print(text));
  else if (command === "/clear") {
    history.splice(1);
    // A new conversation has read nothing: the stale-write guard starts over too.
    options.loop.files?.clear();
    screen.print("Conversation cleared.", "dim");
  } else screen.print(`Unknown command ${command}. /help lists the commands.`, "yellow");
  return "continue";
}

async function runOneTask(
  task: string,
  history: Message[],
  options: ReplOptions,
  ui: { screen: Renderer; session: ApprovalSession; changes: ChangeTracker },
): Promise<void> {
  const { screen, session, changes } = ui;
  const controller = new AbortController();
  const cancel = () => {
    if (!controller.signal.aborted) controller.abort();
  };
  // On a terminal, Esc or Ctrl-C cancels (raw keys); the approval prompt takes the keys while it asks.
  const keys = options.sink.isTerminal ? listenForCancel(cancel) : undefined;
  const prompt = options.sink.isTerminal
    ? terminalAsker({
      beforeAsk: () => screen.pause(),
      onInterrupt: cancel,
      root: options.loop.root,
      useColor: true,
      changes,
      show: (text) => screen.print(text),
    })
    : undefined;
  const asker: AskHuman | undefined = prompt && (async (request, need) => {
    keys?.pause();
    try {
      return await prompt(request, need);
    } finally {
      keys?.resume();
    }
  });
  Deno.addSignalListener("SIGINT", cancel);
  try {
    const result = await runTask(history, task, {
      ...options.loop,
      approve: withChangeCapture(createApprovalGate(options.policy, asker, { session }), changes),
      signal: controller.signal,
      onEvent: (event) => {
        screen.handle(event);
        if (event.type !== "tool_result") return;
        const summary = changes.summary(event.id);
        // edit_file's own result line already ends with "(+N −M lines)".
        if (summary && !event.isError && !/\+\d+ −\d+ lines?\)/.test(event.content)) {
          screen.print(`    ${summary}`, "dim");
        }
      },
    });
    if (result.exitReason === "cancelled") {
      screen.print("Cancelled. The conversation is kept; type the next task.", "yellow");
    } else if (result.error) screen.print(`error: ${result.error}`, "red");
    else if (result.partial) screen.print(partialNote(result.exitReason), "yellow");
    if (result.turns > 1) screen.print(`task total: ${formatUsage(result.usage)}`, "dim");
  } finally {
    keys?.stop();
    Deno.removeSignalListener("SIGINT", cancel);
  }
}
