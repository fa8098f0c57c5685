/** `tern -p TASK`: one task (or, with stream-json input, one per message), an exit code scripts can rely on. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { ApprovalGate } from "../../agent/approval.ts";
import type { AgentEvent, ExitReason } from "../../agent/events.ts";
import type { TaskResult } from "../../agent/loop.ts";
import type { OutputFormat } from "../../config/settings.ts";
import { partialNote, Renderer, type Sink } from "../render/renderer.ts";
import { stdinGate } from "./stdin_approval.ts";
import type { StreamInput } from "./stream_input.ts";
import {
  errorEvent,
  initEvent,
  type PermissionDenial,
  resultEvent,
  type StreamEvent,
  streamEvent,
} from "./stream_json.ts";

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
  /** How long an approval question waits for its answer on stdin (`--approval-timeout`). */
  approvalTimeoutMs?: number;
  /** Cancels the task (SIGINT, SIGTERM). */
  signal?: AbortSignal;
  /** Show a bug's stack on stderr (TERN_DEBUG=1). */
  debug?: boolean;
}

/**
 * Runs the task, then each message from `input`, on `session`, and prints as `output` says; resolves with
 * the exit code of the last turn (2 when stdin carried no message at all). Without `input` nobody can be
 * asked: the session's policy decides.
 */
export async function runHeadless(session: AgentSession, options: HeadlessOptions): Promise<number> {
  const { output, stdout, stderr, input } = options;
  const emit = (event: StreamEvent) => stdout.write(JSON.stringify(event) + "\n");
  if (output === "stream-json") emit(initEvent(session, { input_format: input ? "stream-json" : "text" }));
  let last: StreamEvent | undefined;
  let code = 2;
  for (let task = options.task ?? await input?.next(); task != null; task = await input?.next()) {
    const approve = input && stdinGate(session, { input, emit, timeoutMs: options.approvalTimeoutMs });
    const { result, event } = await runTurn(session, task, { ...options, approve, emit });
    last = event;
    code = exitCodeFor(result.exitReason);
    if (output === "stream-json") emit(event);
    if (result.exitReason === "cancelled") break;
  }
  if (last === undefined) {
    stderr.write('tern: stdin carried no user message (a line like {"type":"user","text":"..."})\n');
    if (output === "stream-json") emit(errorEvent("stdin carried no user message"));
  } else if (output === "json") emit(last);
  return code;
}

/** One turn: events printed (or drawn as progress on stderr), its result and its `result` event. */
async function runTurn(
  session: AgentSession,
  task: string,
  options: HeadlessOptions & { approve?: ApprovalGate; emit: (event: StreamEvent) => void },
): Promise<{ result: TaskResult; event: StreamEvent }> {
  const { output, stdout, stderr } = options;
  const progress = new Renderer(stderr, {
    showText: false,
    showReasoning: false,
    useColor: stderr.isTerminal,
  });
  // Calls refused for lack of approval: listed in the result so a script sees what did not run.
  const denials: PermissionDenial[] = [];
  const onEvent = (event: AgentEvent) => {
    if (event.type === "tool_result" && event.errorKind === "denied") {
      denials.push({ tool_name: event.name, tool_call_id: event.id, reason: event.content });
    }
    if (output !== "stream-json") return progress.handle(event);
    const line = streamEvent(event);
    if (line) options.emit(line);
  };
  const started = performance.now();
  let result: TaskResult;
  try {
    result = await session.run(task, { onEvent, signal: options.signal, approve: options.approve });
  } finally {
    progress.dispose();
  }
  if (result.error) stderr.write(`tern: ${result.error}\n`);
  if (result.debug && options.debug) stderr.write(`${result.debug}\n`);
  if (result.exitReason === "cancelled" && output !== "stream-json") stderr.write("tern: cancelled\n");
  if (output === "text") {
    if (result.partial) stderr.write(`tern: ${partialNote(result.exitReason)}\n`);
    if (result.text !== "") stdout.write(result.text.endsWith("\n") ? result.text : result.text + "\n");
  }
  const durationMs = performance.now() - started;
  return { result, event: resultEvent(result, { session, denials, durationMs }) };
}
