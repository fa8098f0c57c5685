import { assertEquals } from "../../support/assert.ts";
import { discoverAgents, parseAgent, userAgentDir } from "../../../src/agent/project/agents.ts";
import { tempProject } from "../../support/temp_project.ts";

const REVIEWER = `---
name: reviewer
description: Reviews code for bugs
tools: Read, Grep, Bash, WebSearch, NotebookEdit
model: sonnet
---
Name the file and line of each problem.
`;

Deno.test("parseAgent() reads name, description, Claude Code's tool names and model alias, and the body", () => {
  assertEquals(parseAgent({ source: ".claude/agents/reviewer.md", text: REVIEWER }), {
    name: "reviewer",
    description: "Reviews code for bugs",
    tools: ["read_file", "grep_code", "execute_command", "web_search"],
    model: undefined,
    instructions: "Name the file and line of each problem.",
    source: ".claude/agents/reviewer.md",
    notes: [
      "tools not known to tern, left out: NotebookEdit",
      "model \"sonnet\" is Claude Code's alias: the session's model runs it",
    ],
  });
});

Deno.test("parseAgent() takes a YAML list of tools, a model name as is, and the file name when name is absent", () => {
  const text =
    "---\ndescription: Finds things\ntools:\n  - read_file\n  - glob_files\nmodel: small-model\n---\nFind.";
  const agent = parseAgent({ source: ".tern/agents/finder.md", text });
  assertEquals(typeof agent === "object" && [agent.name, agent.tools, agent.model], [
    "finder",
    ["read_file", "glob_files"],
    "small-model",
  ]);
  const noTools = parseAgent({ source: ".tern/agents/x.md", text: "---\ndescription: d\n---\n" });
  assertEquals(typeof noTools === "object" && noTools.tools, undefined);
});

Deno.test("parseAgent() refuses a file without front matter, a bad or reserved name, a missing description", () => {
  assertEquals(
    parseAgent({ source: "a.md", text: "just text" }),
    "no front matter (--- name: ... description: ... ---)",
  );
  assertEquals(
    parseAgent({ source: "a.md", text: "---\nname: Bad Name\ndescription: d\n---\n" }),
    "name must be lower-case letters, digits and hyphens",
  );
  assertEquals(
    parseAgent({ source: "a.md", text: "---\nname: general\ndescription: d\n---\n" }),
    '"general" is the built-in agent\'s name; choose another',
  );
  assertEquals(parseAgent({ source: "a.md", text: "---\nname: a\n---\n" }), "description is missing");
});

Deno.test("discoverAgents() reads .tern/agents before .claude/agents, skips links, and reads the user's folder after", async () => {
  await using project = await tempProject({
    ".tern/agents/reviewer.md": REVIEWER,
    ".claude/agents/reviewer.md": REVIEWER.replace("Reviews code for bugs", "shadowed"),
    ".claude/agents/broken.md": "no front matter",
    "outside.md": "---\nname: linked\ndescription: d\n---\n",
  });
  await Deno.symlink(`${project.root}/outside.md`, `${project.root}/.tern/agents/linked.md`);
  const home = `${project.outside}/config`;
  await Deno.mkdir(`${home}/tern/agents`, { recursive: true });
  await Deno.writeTextFile(`${home}/tern/agents/mine.md`, "---\nname: mine\ndescription: my own\n---\nHi.");
  const userDir = userAgentDir({ XDG_CONFIG_HOME: home });
  const found = await discoverAgents(project.root, { userDir });
  assertEquals(found.agents.map((agent) => [agent.name, agent.description, agent.source]), [
    ["mine", "my own", `${home}/tern/agents/mine.md`],
    ["reviewer", "Reviews code for bugs", ".tern/agents/reviewer.md"],
  ]);
  assertEquals(found.problems, [
    ".tern/agents/linked.md: not a regular file",
    ".claude/agents/broken.md: no front matter (--- name: ... description: ... ---)",
    '.claude/agents/reviewer.md: "reviewer" is already defined by .tern/agents/reviewer.md',
  ]);
  assertEquals(found.userDir, { shown: `${home}/tern/agents`, readable: true });
});

Deno.test("userAgentDir() is $XDG_CONFIG_HOME/tern/agents, else ~/.config/tern/agents", () => {
  assertEquals(userAgentDir({ XDG_CONFIG_HOME: "/x" }), { path: "/x/tern/agents", shown: "/x/tern/agents" });
  assertEquals(userAgentDir({ HOME: "/h" }), {
    path: "/h/.config/tern/agents",
    shown: "~/.config/tern/agents",
  });
  assertEquals(userAgentDir({}), null);
});
