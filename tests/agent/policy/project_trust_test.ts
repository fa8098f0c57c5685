import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import {
  decideProjectTrust,
  describeSupplies,
  type ProjectSupplies,
  untrustedNote,
} from "../../../src/agent/policy/project_trust.ts";
import { tempProject } from "../../support/temp_project.ts";

const SUPPLIES: ProjectSupplies = {
  endpoint: { endpoint: "https://collector.example/v1", variable: "TERN_BASE_URL" },
  mcp: { text: '{"mcpServers":{}}', lines: ["tools: runs node srv.js (NOT sandboxed)"] },
  allowRules: ["write_file"],
  memory: "AGENTS.md",
  skills: ["deploy"],
};

Deno.test("decideProjectTrust() asks once, shows everything supplied, and remembers the answer", async () => {
  await using project = await tempProject();
  const asked: string[][] = [];
  const ask = (lines: string[]) => (asked.push(lines), Promise.resolve(true));
  const first = await decideProjectTrust(project.root, SUPPLIES, { flags: {}, ask });
  assertEquals(first, { project: true, endpoint: true, mcp: true, how: "asked" });
  assertEquals(asked, [[
    ".env sends your own API key to https://collector.example/v1 (it sets TERN_BASE_URL)",
    ".mcp.json starts these MCP servers:",
    "  tools: runs node srv.js (NOT sandboxed)",
    ".tern/settings.json lets these run without asking: write_file",
    "AGENTS.md: instructions put in the model's system prompt",
    "skills the model is told to follow: deploy",
  ]]);
  const again = await decideProjectTrust(project.root, { ...SUPPLIES, memory: "CLAUDE.md" }, { flags: {} });
  assertEquals(again.how, "remembered", "memory and skills may change without asking again");
  assertEquals((await Deno.lstat(`${project.root}/.tern/local/trust.json`)).isFile, true);
});

Deno.test("decideProjectTrust() asks again when what can run code or loosen approval changes", async () => {
  await using project = await tempProject();
  await decideProjectTrust(project.root, SUPPLIES, { flags: {}, ask: () => Promise.resolve(true) });
  const changes: Partial<ProjectSupplies>[] = [
    { mcp: { text: '{"mcpServers":{"x":{}}}', lines: [] } },
    { allowRules: ["write_file", "execute_command"] },
    { endpoint: { endpoint: "https://other.example", variable: "TERN_BASE_URL" } },
    { hooks: ["PostToolUse write_file: ./lint.sh"] },
  ];
  for (const change of changes) {
    const trust = await decideProjectTrust(project.root, { ...SUPPLIES, ...change }, { flags: {} });
    assertEquals(trust, { project: false, endpoint: false, mcp: false, how: "no_terminal", refused: false });
  }
});

Deno.test("decideProjectTrust() remembers a no; --trust-project trusts all, the narrower flags one part each", async () => {
  await using project = await tempProject();
  const no = await decideProjectTrust(project.root, SUPPLIES, {
    flags: {},
    ask: () => Promise.resolve(false),
  });
  assertEquals(no, { project: false, endpoint: false, mcp: false, how: "asked", refused: true });
  assertEquals((await decideProjectTrust(project.root, SUPPLIES, { flags: {} })).how, "remembered");
  const all = await decideProjectTrust(project.root, SUPPLIES, { flags: { project: true } });
  assertEquals(all, { project: true, endpoint: true, mcp: true, how: "flag" });
  await using fresh = await tempProject();
  const env = await decideProjectTrust(fresh.root, SUPPLIES, { flags: { env: true } });
  assertEquals([env.project, env.endpoint, env.mcp], [false, true, false]);
  const mcp = await decideProjectTrust(fresh.root, SUPPLIES, { flags: { mcp: true } });
  assertEquals([mcp.project, mcp.endpoint, mcp.mcp], [false, true, true], "the env flag's trust was kept");
});

Deno.test("decideProjectTrust() remembers a narrower flag's part headless, and never hides the full question from the REPL", async () => {
  await using project = await tempProject();
  const onlyMcp: ProjectSupplies = { mcp: SUPPLIES.mcp, allowRules: [], skills: [] };
  const flagged = await decideProjectTrust(project.root, onlyMcp, { flags: { mcp: true } });
  assertEquals(flagged, { project: false, endpoint: false, mcp: true, how: "flag", refused: false });
  const later = await decideProjectTrust(project.root, onlyMcp, { flags: {} });
  assertEquals(later, { project: false, endpoint: false, mcp: true, how: "remembered", refused: false });
  // Other parts still need the question; a no takes the remembered part back.
  const more = { ...onlyMcp, memory: "AGENTS.md" };
  const no = await decideProjectTrust(project.root, more, { flags: {}, ask: () => Promise.resolve(false) });
  assertEquals([no.mcp, no.how, no.refused], [false, "asked", true]);
  const changed = { ...onlyMcp, mcp: { text: '{"mcpServers":{"y":{}}}', lines: [] } };
  assertEquals((await decideProjectTrust(project.root, changed, { flags: {} })).mcp, false);
  // The REPL with the same narrower flag does not ask; without it, it asks about the whole project.
  await using fresh = await tempProject();
  await decideProjectTrust(fresh.root, onlyMcp, { flags: { mcp: true } });
  const never = () => Promise.reject(new Error("asked"));
  const again = await decideProjectTrust(fresh.root, onlyMcp, { flags: { mcp: true }, ask: never });
  assertEquals([again.project, again.mcp, again.how], [false, true, "flag"]);
  const asked: string[][] = [];
  const yes = (lines: string[]) => (asked.push(lines), Promise.resolve(true));
  const repl = await decideProjectTrust(fresh.root, onlyMcp, { flags: {}, ask: yes });
  assertEquals([repl.project, repl.mcp, repl.how, asked.length], [true, true, "asked", 1]);
  assertEquals((await decideProjectTrust(fresh.root, onlyMcp, { flags: {}, ask: never })).how, "remembered");
});

Deno.test("decideProjectTrust() has nothing to ask when the project supplies nothing", async () => {
  await using project = await tempProject();
  const none = { allowRules: [], skills: [] };
  const trust = await decideProjectTrust(project.root, none, {
    flags: {},
    ask: () => Promise.reject("asked"),
  });
  assertEquals(trust.how, "nothing_to_trust");
  assertEquals(describeSupplies(none), []);
});

Deno.test("untrustedNote() says in one line what was ignored and how to trust", () => {
  const trust = { project: false, endpoint: false, mcp: false, how: "no_terminal" as const, refused: false };
  const note = untrustedNote(SUPPLIES, trust)!;
  assertEquals(
    note,
    "ignored .mcp.json (1 server), .tern/settings.json permissions (1 allow rule), the project's 1 skill: " +
      "this project's settings are not trusted yet (pass --trust-project, or answer the trust question the REPL " +
      "asks: tern without -p here); " +
      "AGENTS.md is read as untrusted data",
  );
  const refused = untrustedNote(SUPPLIES, { ...trust, how: "remembered", refused: true })!;
  assertStringIncludes(
    refused,
    "you did not trust this project (pass --trust-project to trust it, or delete .tern/local/trust.json to " +
      "be asked again in the REPL)",
  );
  assertEquals(untrustedNote(SUPPLIES, { project: true, endpoint: true, mcp: true, how: "flag" }), undefined);
});

Deno.test("decideProjectTrust() lists the project's hooks in the question and covers them in the decision", async () => {
  await using project = await tempProject();
  const hooks = ["PreToolUse execute_command: ./check.sh", "Stop: ./tests.sh"];
  const asked: string[][] = [];
  const ask = (lines: string[]) => (asked.push(lines), Promise.resolve(true));
  await decideProjectTrust(project.root, { allowRules: [], skills: [], hooks }, { flags: {}, ask });
  assertEquals(asked, [[
    ".tern/settings.json runs these hooks (in the sandbox) on events:",
    "  PreToolUse execute_command: ./check.sh",
    "  Stop: ./tests.sh",
  ]]);
  const same = await decideProjectTrust(project.root, { allowRules: [], skills: [], hooks }, { flags: {} });
  assertEquals(same.how, "remembered");
  const changed = { allowRules: [], skills: [], hooks: ["PreToolUse execute_command: ./other.sh"] };
  assertEquals((await decideProjectTrust(project.root, changed, { flags: {} })).how, "no_terminal");
  const untrusted = { project: false, endpoint: false, mcp: false, how: "no_terminal" as const };
  assertStringIncludes(untrustedNote(changed, untrusted)!, "ignored .tern/settings.json 1 hook:");
});

Deno.test("describeSupplies() names Claude Code's settings files beside tern's in the trust question", () => {
  const lines = describeSupplies({
    allowRules: ["Bash(npm test:*)"],
    skills: [],
    settingsFiles: [".tern/settings.json", ".claude/settings.json"],
    hooks: ["PreToolUse Bash: ./a.sh (.claude/settings.json)", "StatusLine: ./s.sh (.claude/settings.json)"],
  });
  assertEquals(lines, [
    ".tern/settings.json + .claude/settings.json lets these run without asking: Bash(npm test:*)",
    ".tern/settings.json + .claude/settings.json runs these hooks (in the sandbox) on events:",
    "  PreToolUse Bash: ./a.sh (.claude/settings.json)",
    "  StatusLine: ./s.sh (.claude/settings.json)",
  ]);
});

Deno.test("decideProjectTrust() lists the project's language servers in the question and covers them", async () => {
  await using project = await tempProject();
  const lsp = ["python: ./evil-lsp --stdio (.py)"];
  const asked: string[][] = [];
  const ask = (lines: string[]) => (asked.push(lines), Promise.resolve(true));
  await decideProjectTrust(project.root, { allowRules: [], skills: [], lsp }, { flags: {}, ask });
  assertEquals(asked, [[
    ".tern/settings.json starts these language servers (in the sandbox) after edits:",
    "  python: ./evil-lsp --stdio (.py)",
  ]]);
  assertEquals(
    (await decideProjectTrust(project.root, { allowRules: [], skills: [], lsp }, { flags: {} })).how,
    "remembered",
  );
  const changed = { allowRules: [], skills: [], lsp: ["python: ./other-lsp --stdio (.py)"] };
  assertEquals((await decideProjectTrust(project.root, changed, { flags: {} })).how, "no_terminal");
  const untrusted = { project: false, endpoint: false, mcp: false, how: "no_terminal" as const };
  assertStringIncludes(untrustedNote(changed, untrusted)!, "ignored .tern/settings.json 1 language server:");
});
