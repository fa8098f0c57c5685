/** `/skills`: the skills found at launch, with where each one's SKILL.md is. */
import type { Skill } from "../../agent/project/skills.ts";
import type { SlashCommand } from "./types.ts";

/** Builds `/skills` over the skills found at launch (`problems`: skill files that were skipped, and why). */
export function skillsCommand(skills: readonly Skill[], problems: readonly string[] = []): SlashCommand {
  return {
    name: "/skills",
    help: "list the skills (.tern/skills, .agents/skills, .claude/skills) the model can use",
    run: (ctx) => {
      if (skills.length === 0) {
        ctx.screen.print("No skills found (put one in .tern/skills/<name>/SKILL.md).", "dim");
      }
      for (const skill of skills) ctx.screen.print(`  ${skill.name}: ${skill.description} (${skill.path})`);
      for (const problem of problems) ctx.screen.print(`  skipped ${problem}`, "yellow");
      return "continue";
    },
  };
}
