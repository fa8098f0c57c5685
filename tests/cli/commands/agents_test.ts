import { assertEquals } from "../../support/assert.ts";
import { agentsCommand } from "../../../src/cli/commands/agents.ts";
import { Renderer } from "../../../src/cli/render/renderer.ts";
import type { Sink } from "../../../src/cli/render/sink.ts";
import { testSession } from "../../support/session.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("/agents lists the default and named agents, their tools and files, the skipped files and the user's folder", async () => {
  await using project = await tempProject({});
  const parts: string[] = [];
  const sink: Sink = { write: (text) => parts.push(text), isTerminal: false };
  const screen = new Renderer(sink, { showText: true, showReasoning: true, useColor: false });
  const command = agentsCommand({
    agents: [{
      name: "reviewer",
      description: "reviews code",
      tools: ["read_file", "grep_code"],
      model: "small",
      instructions: "",
      source: ".claude/agents/reviewer.md",
      notes: ["tools not known to tern, left out: WebSearch"],
    }],
    problems: [".tern/agents/x.md: description is missing"],
    userDir: { shown: "~/.config/tern/agents", readable: false },
  });
  await command.run({ args: [], session: await testSession(project.root), screen });
  assertEquals(parts.join("").split("\n").slice(0, 7), [
    "  general: the default agent · tools: glob_files, grep_code, list_dir, read_file, web_fetch, web_search",
    "  reviewer: reviews code",
    "    tools: read_file, grep_code · model: small · .claude/agents/reviewer.md",
    "    tools not known to tern, left out: WebSearch",
    "  ~/.config/tern/agents: not read (tern's permission flags let it read only this project)",
    "  skipped .tern/agents/x.md: description is missing",
    "A sub-agent never gets tools this session lacks, never runs task itself, and never asks you: what needs " +
    "your yes is refused.",
  ]);
});
