/** Undo's plan over the conversation log: compaction hides turns from the model, not from undo. */
import { assertEquals } from "../support/assert.ts";
import { Conversation } from "../../src/agent/log/conversation.ts";
import { applyUndo, planUndo } from "../../src/agent/log/undo.ts";

Deno.test("planUndo() after /compact still finds the last prompt's snapshot; undoing it rewinds the summary too", async () => {
  const conversation = new Conversation({ systemPrompt: "s" });
  const turn = (tree: string, prompt: string, answer: string) => {
    conversation.append({ kind: "snapshot", tree });
    conversation.append({ kind: "user", text: prompt });
    conversation.append({ kind: "assistant", message: { role: "assistant", content: answer } });
  };
  turn("tree-1", "first task", "First answer.");
  turn("tree-2", "second task", "Second answer.");
  // /compact: everything so far replaced by a summary.
  conversation.append({
    kind: "summary",
    text: "the user asked two things",
    replaces: conversation.entries.length,
  });
  assertEquals(
    conversation.messages().map((m) => m.content).slice(1, 2)[0].includes("the user asked two things"),
    true,
  );
  const plan = await planUndo(conversation, null);
  assertEquals([plan?.tree, plan?.prompt], ["tree-2", "second task"]);
  await applyUndo(conversation, null, plan!, { files: false, conversation: true });
  // Back to before the second prompt: the first turn, unsummarised.
  assertEquals(conversation.messages().slice(1).map((m) => m.content), ["first task", "First answer."]);
  const next = await planUndo(conversation, null);
  assertEquals([next?.tree, next?.prompt], ["tree-1", "first task"]);
});
