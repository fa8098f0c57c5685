/**
 * One ACP prompt on an open session: a prompt that starts with a slash command runs it (as the REPL would),
 * `@path` mentions attach their files and images, events stream as updates in order, approvals are asked
 * in the editor, and the editor's buffers serve as the files when it offers its fs methods.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentSession } from "../../agent/agent_session.ts";
import type { ExitReason } from "../../agent/events.ts";
import type { TaskResult } from "../../agent/loop/loop.ts";
import type { EditorFiles } from "../../tools/tool.ts";
import { runCommandText } from "../commands/run_text.ts";
import type { SlashCommand } from "../commands/types.ts";
import { attachMentions } from "../input/attachments.ts";
import { editorGate } from "./permission.ts";
import { UpdateMapper } from "./updates.ts";
import { npmPackage } from "../../npm.ts";

const sdk = await npmPackage("@agentclientprotocol/sdk");

/** Where a prompt's updates and questions go. */
export interface PromptContext {
  sessionId: string;
  editor: acp.AgentContext;
  client: acp.ClientCapabilities;
  commands: SlashCommand[];
}

/** The commands as ACP's `available_commands_update` lists them (names without the slash). */
export function availableCommands(commands: SlashCommand[]): acp.SessionUpdate {
  return {
    sessionUpdate: "available_commands_update",
    availableCommands: commands.map((command) => ({
      name: command.name.slice(1),
      description: command.help,
      ...command.custom?.argumentHint && { input: { hint: command.custom.argumentHint } },
    })),
  };
}

/** Runs one prompt's text; resolves with its stop reason. */
export async function runPrompt(
  session: AgentSession,
  text: string,
  context: PromptContext,
): Promise<acp.PromptResponse> {
  const { sessionId, editor } = context;
  const mapper = new UpdateMapper(session.root);
  // Updates go out one after another, in the order the events came.
  let sent = Promise.resolve();
  const update = (item: acp.SessionUpdate) => {
    sent = sent.then(() => editor.notify(sdk.methods.client.session.update, { sessionId, update: item }))
      .catch((error) => console.error(`tern: session/update failed: ${error}`));
    return sent;
  };
  const say = (message: string) => update({ sessionUpdate: "agent_message_chunk", content: plain(message) });
  const approve = editorGate(session, {
    sessionId,
    mapper,
    update,
    request: async (params) => {
      await sent; // the call's own updates reach the editor before the question about it
      return await editor.request(sdk.methods.client.session.requestPermission, params);
    },
  });
  let last: TaskResult | undefined;
  const runTask = async (task: string) => {
    const attached = await attachMentions(task, session.root, session.model);
    for (const note of attached.notes) say(`[${note}]\n`);
    last = await session.run(attached.task, {
      approve,
      editor: editorFiles(context),
      images: attached.images.length > 0 ? attached.images : undefined,
      onEvent: (event) => mapper.map(event).forEach(update),
    });
  };
  const print = (output: string) => say(`${output}\n`);
  if (!await runCommandText(text, context.commands, { session, print, runTask })) await runTask(text);
  await sent;
  if (last?.exitReason === "error") {
    throw sdk.RequestError.internalError(undefined, last.error ?? "the turn failed");
  }
  return { stopReason: stopReason(last?.exitReason ?? "done") };
}

function plain(text: string): acp.ContentBlock {
  return { type: "text", text };
}

/** The editor's files when the client offers both fs methods; else the disk. */
function editorFiles({ sessionId, editor, client }: PromptContext): EditorFiles | undefined {
  if (!client.fs?.readTextFile || !client.fs?.writeTextFile) return undefined;
  return {
    readTextFile: async (path) =>
      (await editor.request(sdk.methods.client.fs.readTextFile, { sessionId, path })).content,
    writeTextFile: async (path, content) => {
      await editor.request(sdk.methods.client.fs.writeTextFile, { sessionId, path, content });
    },
  };
}

/** How a turn's end reads in ACP. */
export function stopReason(reason: ExitReason): acp.StopReason {
  if (reason === "cancelled") return "cancelled";
  if (reason === "max_turns") return "max_turn_requests";
  if (reason === "length" || reason === "token_budget") return "max_tokens";
  return "end_turn";
}
