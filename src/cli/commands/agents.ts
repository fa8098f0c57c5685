/** `/agents`: the sub-agents the task tool offers, with their tools, model and file, and what was skipped. */
import type { FoundAgents } from "../../agent/project/agents.ts";
import { CHILD_DEFAULT_TOOLS } from "../../tools/tool_names.ts";
import { DEFAULT_AGENT } from "../../tools/task.ts";
import type { SlashCommand } from "./types.ts";

/** Builds `/agents` over the agents found at launch. */
export function agentsCommand(found: FoundAgents): SlashCommand {
  return {
    name: "/agents",
    help: "list the sub-agents the model can hand jobs to (.tern/agents, .claude/agents, your own folder)",
    run: (ctx) => {
      const { screen } = ctx;
      screen.print(`  ${DEFAULT_AGENT}: the default agent · tools: ${CHILD_DEFAULT_TOOLS.join(", ")}`);
      for (const agent of found.agents) {
        const tools = agent.tools ? agent.tools.join(", ") : `${CHILD_DEFAULT_TOOLS.join(", ")} (default)`;
        const model = agent.model ? ` · model: ${agent.model}` : "";
        screen.print(`  ${agent.name}: ${agent.description}`);
        screen.print(`    tools: ${tools}${model} · ${agent.source}`, "dim");
        for (const note of agent.notes) screen.print(`    ${note}`, "yellow");
      }
      if (found.agents.length === 0) {
        screen.print(
          "No agents of your own yet: put one in .tern/agents/<name>.md (front matter name, " +
            "description, tools, model; the body is its instructions).",
          "dim",
        );
      }
      const dir = found.userDir;
      if (dir && !dir.readable) {
        screen.print(
          `  ${dir.shown}: not read (tern's permission flags let it read only this project)`,
          "dim",
        );
      }
      for (const problem of found.problems) screen.print(`  skipped ${problem}`, "yellow");
      screen.print(
        "A sub-agent never gets tools this session lacks, never runs task itself, and never asks you: " +
          "what needs your yes is refused.",
        "dim",
      );
      return "continue";
    },
  };
}
