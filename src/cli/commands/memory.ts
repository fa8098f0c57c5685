/** `/memory` (what project memory the prompt carries) and `/init` (the model writes an AGENTS.md). */
import {
  loadMemory,
  MEMORY_CAP_BYTES,
  MEMORY_FILES,
  type ProjectMemory,
} from "../../agent/project/memory.ts";
import type { SlashCommand, SlashOutcome } from "./types.ts";
import type { Renderer } from "../render/renderer.ts";

/** The task `/init` gives the model; the write goes through approval like any other. */
export const INIT_TASK = [
  "Survey this project and write AGENTS.md at the project root: a short guide for coding agents.",
  "Cover: what the project is (one or two lines); how to build, test, lint and run it (exact commands,",
  "found in its manifests and CI files, not guessed); the layout (main folders and what lives in each);",
  "conventions a contributor must follow (style, naming, testing habits, anything surprising).",
  "Keep it under 150 lines, in plain Markdown. If AGENTS.md or CLAUDE.md exists, read it first and",
  "improve it rather than starting over. Write the file with write_file (or edit_file) when you are done.",
].join(" ");

/**
 * `/memory`: the memory file loaded into this conversation's system prompt, and from where; a memory file
 * written since (by `/init`, say) is shown too, with when it takes effect.
 */
export const memoryCommand: SlashCommand = {
  name: "/memory",
  help: `show the project memory in the system prompt (${MEMORY_FILES.join(", or else ")})`,
  run: async (ctx): Promise<SlashOutcome> => {
    const memory = ctx.session.memory;
    const onDisk = await loadMemory(ctx.session.root).catch(() => null);
    if (!memory && !onDisk) {
      ctx.screen.print(
        `No project memory: no ${MEMORY_FILES.join(" or ")} at the project root. /init writes one. ` +
          "(tern reads nothing outside the project, so there is no user-level memory file.)",
      );
      return "continue";
    }
    if (memory) showMemory(ctx.screen, memory, "Project memory");
    if (onDisk && (onDisk.source !== memory?.source || onDisk.text !== memory?.text)) {
      const now = memory
        ? "changed since this conversation started"
        : "written since this conversation started";
      ctx.screen.print(
        `${onDisk.source} was ${now}: new conversations carry it (/clear, or the next tern).`,
        "yellow",
      );
      showMemory(ctx.screen, onDisk, "On disk now");
    }
    return "continue";
  },
};

function showMemory(screen: Renderer, memory: ProjectMemory, title: string): void {
  const cut = memory.truncated ? `, cut at ${MEMORY_CAP_BYTES / 1024} KB` : "";
  const imports = memory.imports ? ` and its imports ${memory.imports.join(", ")}` : "";
  screen.print(`${title} from ${memory.source}${imports} (${memory.bytes} bytes${cut}):`, "dim");
  screen.print(memory.text);
  for (const problem of memory.problems ?? []) screen.print(problem, "yellow");
}

/** `/init`: asks the model to survey the project and write AGENTS.md (shown as a diff, approved). */
export const initCommand: SlashCommand = {
  name: "/init",
  help: "ask the model to survey the project and write an AGENTS.md (you approve the write)",
  run: async (ctx): Promise<SlashOutcome> => {
    if (!ctx.runTask) {
      ctx.screen.print("This command needs a full tern run.");
      return "continue";
    }
    await ctx.runTask(INIT_TASK);
    ctx.screen.print("New conversations (/clear, or the next tern) carry the new AGENTS.md.", "dim");
    return "continue";
  },
};
