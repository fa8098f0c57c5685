/** `tern -p TASK`: one task (or, with stream-json input, one per message), an exit code scripts can rely on. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { ApprovalGate, AskHuman } from "../../agent/policy/approval.ts";
import type { AgentEvent, ExitReason } from "../../agent/events.ts";
import type { TaskResult } from "../../agent/loop/loop.ts";
import type { OutputFormat } from "../../config/settings.ts";
import { Renderer } from "../render/renderer.ts";
import type { Sink } from "../render/sink.ts";
import { partialNote } from "../render/task_words.ts";
import { CallLog, refusedLine } from "./call_log.ts";
import { stdinGate } from "./stdin_approval.ts";
import {
  errorEvent,
  event as streamLine,
  initEvent,
  resultEvent,
  type StreamEvent,
  streamEvent,
} from "./stream_json.ts";
import type { SlashCommand } from "../commands/types.ts";
import { attachMentions } from "../input/attachments.ts";
import type { StreamInput, StreamMessage } from "./stream_input.ts";
import { terminalSafe } from "../render/terminal_safe.ts";

/** Exit code for each way a task can end: 0 done, 1 error, 3 stopped early, 130 cancelled. */
export function exitCodeFor(reason: ExitReason): number {
  if (reason === "done") return 0;
  if (reason === "error") return 1;
  if (reason === "cancelled") return 130;
  return 3;
}

/** What a headless run needs besides its session. */
export interface HeadlessOptions {
  /** The first message (`-p TASK`); with `input`, more come from stdin. */
  task?: string;
  output: OutputFormat;
  stdout: Sink;
  stderr: Sink;
  /** `--input-format stream-json`: further messages and the answers to approval questions. */
  input?: StreamInput;
  /**
   * The session's slash commands, built (and their modules loaded) only for a message that starts with "/":
   * such a message runs its command, as in the REPL.
   */
  commands?: () => Promise<SlashCommand[]>;
  /** How long an approval question waits for its answer on stdin (`--approval-timeout`). */
  approvalTimeoutMs?: number;
  /** Cancels the task (SIGINT, SIGTERM). */
  signal?: AbortSignal;
  /** Show a bug's stack on stderr (TERN_DEBUG=1). */
  debug?: boolean;
  /**
   * The run has a terminal: asks there, given how to make room for the question. Absent (and no `input`), a
   * call that needs a yes is refused (the policy decides) and named at the end.
   */
  ask?: (screen: AskScreen) => AskHuman;
}

/** What the terminal question needs of the progress printer. */
export interface AskScreen {
  /** Ends the progress line and stops the spinner before the question is drawn. */
  pause(): void;
  /** Prints the call's preview (a diff, the command) above the question. */
  show(text: string): void;
  /** "Abort this turn" or Ctrl-C at the question: cancels the task. */
  cancel(): void;
}

/**
 * Runs the task, then each message from `input`, on `session`, and prints as `output` says; resolves with
 * the exit code of the last turn (2 when stdin carried no message at all). A turn that finished but had calls
 * refused for want of approval says so in one line and exits 3: its answer lacks what they would do.
 */
export async function runHeadless(session: AgentSession, options: HeadlessOptions): Promise<number> {
  const { output, stdout, stderr, input } = options;
  const emit = (event: StreamEvent) => stdout.write(JSON.stringify(event) + "\n");
  if (output === "stream-json") emit(initEvent(session, { input_format: input ? "stream-json" : "text" }));
  let last: StreamEvent | undefined;
  let code = 2;
  let cancelled = false;
  // A message that starts with "/" runs its command, as in the REPL; true when it did.
  const runCommand = async (task: StreamMessage): Promise<boolean> => {
    if (!task.text.trimStart().startsWith("/") || options.commands === undefined) return false;
    const print = (text: string) => {
      if (output === "stream-json") emit(streamLine("command_output", { text }));
      else stdout.write(`${text}\n`);
    };
    const runText = (text: string) => runTask({ text, images: task.images });
    const { runCommandText } = await import("../commands/run_text.ts");
    return await runCommandText(task.text, await options.commands(), { session, print, runTask: runText });
  };
  const runTask = async (task: StreamMessage) => {
    const approve = input && stdinGate(session, { input, emit, timeoutMs: options.approvalTimeoutMs });
    const turn = await runTurn(session, task, { ...options, approve, emit });
    last = turn.event;
    code = turn.code;
    if (output === "stream-json") emit(turn.event);
    cancelled = turn.result.exitReason === "cancelled";
  };
  const first: StreamMessage | undefined = options.task === undefined ? undefined : { text: options.task };
  for (let task = first ?? await input?.next(); task != null; task = await input?.next()) {
    const ran = await runCommand(task);
    if (ran && last === undefined) [last, code] = [streamLine("command", { text: task.text.trim() }), 0];
    if (!ran) await runTask(task);
    if (cancelled) break;
  }
  if (last === undefined) {
    stderr.write('tern: stdin carried no user message (a line like {"type":"user","text":"..."})\n');
    if (output === "stream-json") emit(errorEvent("stdin carried no user message"));
  } else if (output === "json") emit(last);
  return code;
}

/** One turn: events printed (or drawn as progress on stderr), its result, its `result` event, its exit code. */
async function runTurn(
  session: AgentSession,
  task: StreamMessage,
  options: HeadlessOptions & { approve?: ApprovalGate; emit: (event: StreamEvent) => void },
): Promise<{ result: TaskResult; event: StreamEvent; code: number }> {
  const { output } = options;
  const progress = new Renderer(options.stderr, {
    showText: false,
    showReasoning: false,
    useColor: options.stderr.isTerminal,
  });
  const calls = new CallLog();
  const onEvent = (event: AgentEvent) => {
    calls.handle(event);
    if (output !== "stream-json") return progress.handle(event);
    const line = streamEvent(event);
    if (line) options.emit(line);
  };
  const started = performance.now();
  // `@path` mentions attach the file (or the image), as in the REPL; each note goes to stderr.
  const attached = await attachMentions(task.text, session.root, session.model);
  for (const note of attached.notes) {
    if (output === "stream-json") options.emit(streamLine("notice", { message: note }));
    else options.stderr.write(`tern: ${terminalSafe(note)}\n`);
  }
  let result: TaskResult;
  try {
    result = await session.run(attached.task, {
      ...imagesFor(
        session,
        { text: attached.task, images: [...attached.images, ...task.images ?? []] },
        options.stderr,
      ),
      onEvent,
      signal: options.signal,
      approve: terminalGate(session, progress, options),
    });
  } finally {
    progress.dispose();
  }
  const refused = result.exitReason === "done" && calls.refused.length > 0;
  printResult(result, { ...options, calls });
  const durationMs = performance.now() - started;
  const event = resultEvent(result, { session, denials: calls.denials, durationMs });
  if (refused) event.partial = true;
  return { result, event, code: refused ? 3 : exitCodeFor(result.exitReason) };
}

/** The message's images when the model reads images; else none, and a line on stderr saying so. */
function imagesFor(session: AgentSession, task: StreamMessage, stderr: HeadlessOptions["stderr"]) {
  if (!task.images?.length) return {};
  if (session.model.images) return { images: task.images };
  const count = `${task.images.length} image${task.images.length === 1 ? "" : "s"}`;
  stderr.write(
    `tern: ${count} not sent: ${session.model.model} reads text only (TERN_IMAGES=on says it reads images)\n`,
  );
  return {};
}

/** The gate for this turn: stdin's (stream-json input), the terminal's, or none (the policy decides). */
function terminalGate(
  session: AgentSession,
  progress: Renderer,
  options: HeadlessOptions & { approve?: ApprovalGate },
): ApprovalGate | undefined {
  if (options.approve) return options.approve;
  const ask = options.ask?.({
    pause: () => progress.pause(),
    show: (text: string) => progress.printRendered(text),
    cancel: () => session.cancel(),
  });
  return ask && session.gate(ask, (rule, error) => {
    progress.print(
      error ? `Could not save "${rule}": ${error.message}` : `Saved "${rule}" in .tern/settings.json.`,
    );
  });
}

/** Prints what the turn ended with on stderr, and the answer on stdout in text mode. */
function printResult(result: TaskResult, options: HeadlessOptions & { calls: CallLog }): void {
  const { output, stdout, stderr, calls } = options;
  if (result.error) stderr.write(`tern: ${result.error}\n`);
  if (result.debug && options.debug) stderr.write(`${result.debug}\n`);
  if (result.exitReason === "cancelled" && output !== "stream-json") stderr.write("tern: cancelled\n");
  if (output !== "text") return;
  // A stop with its own reason (the context is full) has said it in one line already.
  if (result.partial && !result.error) stderr.write(`tern: ${partialNote(result.exitReason)}\n`);
  // On a pipe the answer goes out raw (scripts get the bytes); on a terminal no escape of the model's reaches it.
  const text = stdout.isTerminal ? terminalSafe(result.text) : result.text;
  if (text !== "") stdout.write(text.endsWith("\n") ? text : text + "\n");
  if (calls.refused.length > 0) stderr.write(`tern: ${refusedLine(calls.refused)}\n`);
}
