/**
 * Cutting the latest step's tool results to the room a request has left: an equal share each, the whole text
 * saved to a file the model can page, one compaction entry logged and one notice per cut.
 */
import type { ChatRequest, Message } from "../../llm/types.ts";
import { spillText } from "../../tools/spill.ts";
import type { AgentEvent } from "../events.ts";
import type { CutOutput } from "../log/compact.ts";
import type { Conversation, Entry } from "../log/conversation.ts";
import type { RequestGauge } from "./request_gauge.ts";

/** What cutting needs: the measure, where notices go, and where a whole text is saved. */
export interface CutOptions {
  gauge: RequestGauge;
  onEvent: (event: AgentEvent) => void;
  /** The project root, where a cut result's whole text is saved; without it the note says it was not saved. */
  root?: string;
}

/**
 * Cuts the latest step's tool results so the request fits within `target.room` tokens: each gets an equal
 * share of what the rest of the request leaves (a result smaller than its share keeps all of it and passes
 * the remainder on), its whole text saved under `.tern/tool-outputs/`. With `besideSummary` the rest is
 * only what a summary cannot replace: the system prompt, tools, the latest prompt and the latest step.
 * Logged as one compaction; true when something was cut.
 */
export async function cutNewResults(
  conversation: Conversation,
  base: Omit<ChatRequest, "messages">,
  target: { room: number; besideSummary?: boolean },
  options: CutOptions,
): Promise<boolean> {
  const latest = latestResults(conversation);
  if (latest.length === 0) return false;
  const { gauge } = options;
  const messages = conversation.messages();
  const shown = new Map(
    messages.flatMap((message) => message.role === "tool" ? [[message.toolCallId, message.content]] : []),
  );
  const current = latest.map((entry) => ({
    entry,
    tokens: gauge.tokens(shown.get(entry.callId)?.length ?? 0),
  }));
  const emptied = (target.besideSummary ? unsummarisable(messages) : messages).map((message) =>
    message.role === "tool" && latest.some((entry) => entry.callId === message.toolCallId)
      ? { ...message, content: "" }
      : message
  );
  // Each cut result carries a note of about 100 tokens: left out of the share.
  let left = target.room - gauge.measure({ ...base, messages: emptied }).tokens - 100 * latest.length;
  const budget = new Map<string, number>();
  const bySize = [...current].sort((a, b) => a.tokens - b.tokens);
  bySize.forEach(({ entry, tokens }, i) => {
    const share = Math.max(0, Math.floor(left / (bySize.length - i)));
    budget.set(entry.callId, Math.min(tokens, share));
    left -= Math.min(tokens, share);
  });
  const cuts: CutOutput[] = [];
  for (const { entry, tokens } of current) {
    const keepTokens = budget.get(entry.callId)!;
    if (keepTokens >= tokens) continue;
    // Characters of tern's text become more bytes on the wire (escapes): aim a tenth lower.
    const keepChars = Math.floor(0.9 * keepTokens / gauge.tokensPerByte);
    if (keepChars >= entry.content.length) continue;
    cuts.push({ callId: entry.callId, keepChars, ...await saved(entry, options.root) });
  }
  if (cuts.length === 0) return false;
  conversation.append({ kind: "compaction", droppedOutputs: [], abbreviatedCalls: [], cutOutputs: cuts });
  for (const cut of cuts) {
    const entry = latest.find((result) => result.callId === cut.callId)!;
    const where = cut.savedAs ? `; all of it is in ${cut.savedAs}` : "";
    const message = `Context: cut the output of ${entry.name} to fit the context window ` +
      `(${entry.content.length.toLocaleString("en-US")} → ${cut.keepChars.toLocaleString("en-US")} ` +
      `characters${where}).`;
    options.onEvent({ type: "notice", level: "info", message });
  }
  return true;
}

/** What no summary replaces: the system prompt, the latest user message and the latest step. */
function unsummarisable(messages: Message[]): Message[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === "assistant");
  const lastUser = messages.findLastIndex((message, i) => message.role === "user" && i < lastAssistant);
  return [messages[0], ...(lastUser > 0 ? [messages[lastUser]] : []), ...messages.slice(lastAssistant)];
}

type ToolResultEntry = Extract<Entry, { kind: "tool_result" }>;

/** The results of the latest step: the tool results after the last assistant message, if it ends the log. */
function latestResults(conversation: Conversation): ToolResultEntry[] {
  const { indices } = conversation.live();
  const entries = indices.map((i) => conversation.entries[i]);
  const lastAssistant = entries.findLastIndex((entry) => entry.kind === "assistant");
  const lastUser = entries.findLastIndex((entry) => entry.kind === "user");
  if (lastAssistant < 0 || lastUser > lastAssistant) return [];
  return entries.slice(lastAssistant + 1).filter((entry): entry is ToolResultEntry =>
    entry.kind === "tool_result"
  );
}

/** Where the whole result can be read: the tool's own spill file, or one written now (none when it fails). */
async function saved(
  entry: ToolResultEntry,
  root?: string,
): Promise<Omit<CutOutput, "callId" | "keepChars">> {
  if (entry.details?.spilledTo) return { savedAs: entry.details.spilledTo };
  if (root === undefined) return {};
  try {
    return { savedAs: await spillText(root, entry.name, entry.content), exact: true };
  } catch {
    return {};
  }
}
