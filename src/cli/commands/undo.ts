/**
 * `/undo`: puts back every file the last turn changed (by file tools and shell commands alike, from the
 * snapshot taken before its prompt) and rewinds the conversation to before that prompt. Asks first,
 * showing the files; the user may pick files only or the conversation only. Files that changed after the
 * turn (the user's newer work) are named and asked about before they are overwritten. Again goes one more
 * turn back.
 */
import type { SlashCommand, SlashContext, SlashOutcome } from "./types.ts";
import type { UndoPlan } from "../../agent/log/undo.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import { typedText } from "../input/attachments.ts";

/**
 * One answer: a one-key menu on a terminal (as the approval prompt), else a line whose first letter picks
 * (`[a]ll`, `[n]o`, …) or a digit. Undefined when cancelled or unanswered.
 */
async function pick<T extends string>(
  ctx: SlashContext,
  message: string,
  choices: { name: string; value: T }[],
): Promise<T | undefined> {
  if (ctx.choose) return await ctx.choose(message, choices);
  const letters = choices.map((choice) => `[${choice.value[0]}]${choice.value.slice(1)}`).join(", ");
  const answer = (await ctx.ask?.(`${message} ${letters}? `))?.trim().toLowerCase() ?? "";
  return choices.find((choice, i) => answer === String(i + 1) || answer === choice.value[0])?.value;
}

/** `/undo` over the session's snapshots (none when git is missing: then only the conversation rewinds). */
export const undoCommand: SlashCommand = {
  name: "/undo",
  help: "undo the last turn: restore the files it changed (shell commands included) and rewind to before it",
  run: async (ctx): Promise<SlashOutcome> => {
    const plan = await ctx.session.undoPlan();
    if (plan === null || !ctx.ask) {
      ctx.screen.print("Nothing to undo in this conversation.");
      return "continue";
    }
    ctx.screen.print(`Undo the turn "${shownPrompt(plan.prompt)}"`);
    await offerUndo(ctx, plan);
    return "continue";
  },
};

/** A turn's prompt as typed (without attached files), on one line, cut to 70 characters, terminal-safe. */
export function shownPrompt(prompt: string): string {
  const typed = typedText(prompt).replace(/\s+/g, " ");
  return `${terminalSafe(typed.slice(0, 70))}${typed.length > 70 ? "…" : ""}`;
}

/**
 * Shows what going back to `plan` restores and asks what to do (all, files, conversation, no), then what to
 * do with files changed outside the turns; carries out the answer.
 */
export async function offerUndo(ctx: SlashContext, plan: UndoPlan): Promise<void> {
  const { changes } = plan;
  if (changes === null) {
    ctx.screen.print("git is not installed: only the conversation can be rewound.", "yellow");
  } else if (changes.paths.length === 0) ctx.screen.print("No file changed since that prompt.", "dim");
  else ctx.screen.print(`Files to restore:\n${terminalSafe(changes.stat)}`);
  const answer = changes?.paths.length
    ? await pick(ctx, "Undo what?", [
      { name: "All: restore the files and rewind the conversation", value: "all" },
      { name: "Files only", value: "files" },
      { name: "Conversation only", value: "conversation" },
      { name: "No", value: "no" },
    ])
    : await pick(ctx, "Rewind the conversation?", [
      { name: "Yes, rewind the conversation", value: "conversation" },
      { name: "No", value: "no" },
    ]);
  const files = answer === "all" || answer === "files";
  const talk = answer === "all" || answer === "conversation";
  const keep = files ? await askAboutNewer(ctx, plan.changedSince) : "overwrite";
  if (keep === undefined || (!files && !talk)) {
    ctx.screen.print("Nothing undone.", "dim");
    return;
  }
  const keepChangedSince = keep === "keep";
  await ctx.session.undo(plan, { files, conversation: talk, keepChangedSince });
  const restored = changes!.paths.length - (keepChangedSince ? plan.changedSince.length : 0);
  const what = [
    files && `${restored} file(s) restored`,
    keepChangedSince && `${plan.changedSince.length} newer file(s) kept`,
    talk && "conversation rewound",
  ];
  ctx.screen.print(`Undone: ${what.filter(Boolean).join(", ")}.`, "green");
}

/** Files changed outside the turns (the user's own edits): named, then overwrite or keep; undefined stops. */
async function askAboutNewer(ctx: SlashContext, paths: string[]): Promise<"overwrite" | "keep" | undefined> {
  if (paths.length === 0) return "overwrite";
  const names = paths.slice(0, 10).map((path) => terminalSafe(path)).join(", ");
  const more = paths.length > 10 ? ` and ${paths.length - 10} more` : "";
  ctx.screen.print(
    `Changed after that turn (by you, or something other than the turn): ${names}${more}`,
    "yellow",
  );
  const keep = await pick(ctx, "Those files:", [
    { name: "Overwrite them too", value: "overwrite" },
    { name: "Keep them as they are now", value: "keep" },
    { name: "No undo", value: "no" },
  ]);
  return keep === "overwrite" || keep === "keep" ? keep : undefined;
}
