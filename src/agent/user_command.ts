/**
 * `!command` in the REPL (Claude Code's bash mode): the user's own command, run as execute_command runs the
 * model's (in the sandbox where there is one, with its timeout, redaction and output cap), not asked about
 * (the user typed it), and put into the conversation with its output, so the next prompt can refer to it.
 */
import { randomCallId } from "../llm/call_id.ts";
import { inspectPrepared, type Registry, runPrepared } from "../tools/registry.ts";
import type { ToolResult, ToolUpdate } from "../tools/tool.ts";
import { EXECUTE_COMMAND } from "../tools/execute_command.ts";
import type { Conversation } from "./log/conversation.ts";
import { cleanToolOutput } from "./policy/untrusted.ts";

/** Characters of a command's output the conversation keeps (execute_command's own cap comes first). */
const MAX_LOGGED_CHARS = 30_000;

/** What a user command needs: the conversation's tools and log, the root, and how to stop it. */
export interface UserCommandOptions {
  registry: Registry;
  conversation: Conversation;
  root: string;
  signal: AbortSignal;
  onUpdate?: (update: ToolUpdate) => void;
}

/** Runs `command` as execute_command; its result (output cleaned of escapes) is also logged for the model. */
export async function runUserCommand(command: string, options: UserCommandOptions): Promise<ToolResult> {
  const call = { id: randomCallId(), name: EXECUTE_COMMAND, arguments: JSON.stringify({ command }) };
  const ctx = {
    root: options.root,
    signal: options.signal,
    ...options.onUpdate && { onUpdate: options.onUpdate },
  };
  const prepared = options.registry.prepare(call);
  const inspected = "tool" in prepared ? await inspectPrepared(prepared, ctx) : prepared;
  const raw = "inspection" in inspected ? await runPrepared(inspected, ctx) : inspected;
  const result = { ...raw, content: cleanToolOutput(raw.content).content };
  const output = result.content.length > MAX_LOGGED_CHARS
    ? `${result.content.slice(0, MAX_LOGGED_CHARS)}\n[… ${
      result.content.length - MAX_LOGGED_CHARS
    } more characters]`
    : result.content;
  // As data, in a block of its own: what a command printed is no instruction, whoever wrote it.
  options.conversation.append({
    kind: "user",
    from: "tern",
    text: `The user ran a command in the project themselves (not a tool call of yours):\n$ ${command}\n` +
      `<command_output${result.error ? ` error="${result.error.kind}"` : ""}>\n${output}\n</command_output>`,
  });
  return result;
}
