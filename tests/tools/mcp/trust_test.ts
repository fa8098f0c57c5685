import { assertEquals } from "../../support/assert.ts";
import { tempProject } from "../../support/temp_project.ts";
import { decideTrust, describeServers, TRUST_FILE, trustKey } from "../../../src/tools/mcp/trust.ts";
import { loadMcpConfig } from "../../../src/tools/mcp/config.ts";

const MCP = JSON.stringify({
  mcpServers: { tools: { command: "node", args: ["srv.js", "a b"], env: { K: "${GH_TOKEN}" } } },
});

Deno.test("decideTrust() asks once, remembers the answer, and asks again when the file changes", async () => {
  await using project = await tempProject({ ".mcp.json": MCP });
  const root = project.root;
  const asked: string[][] = [];
  const ask = (lines: string[]) => (asked.push(lines), Promise.resolve(true));
  const config = (await loadMcpConfig(root, {}))!;
  assertEquals(await decideTrust(root, config, { flag: false, ask }), { trusted: true, how: "asked" });
  assertEquals(asked, [[
    "tools: runs node srv.js 'a b' (sandboxed; env: K)",
    "it passes these variables of yours to the servers: GH_TOKEN",
  ]]);
  assertEquals(await decideTrust(root, config, { flag: false }), { trusted: true, how: "remembered" });
  const changed = { ...config, text: config.text + " " };
  assertEquals(await decideTrust(root, changed, { flag: false }), { trusted: false, how: "no_terminal" });
  assertEquals(await Deno.readTextFile(`${root}/.tern/.gitignore`), "*\n");
});

Deno.test("decideTrust() remembers a refusal; the flag overrides it", async () => {
  await using project = await tempProject({ ".mcp.json": MCP });
  const root = project.root;
  const config = (await loadMcpConfig(root, {}))!;
  const no = () => Promise.resolve(false);
  assertEquals(await decideTrust(root, config, { flag: false, ask: no }), { trusted: false, how: "asked" });
  assertEquals(await decideTrust(root, config, { flag: false }), { trusted: false, how: "remembered" });
  assertEquals(await decideTrust(root, config, { flag: true }), { trusted: true, how: "flag" });
});

Deno.test("a trust file that git tracks came with the repository and is ignored", async () => {
  await using project = await tempProject({ ".mcp.json": MCP, ".git/index": `DIRC...${TRUST_FILE}...` });
  const root = project.root;
  const config = (await loadMcpConfig(root, {}))!;
  const key = await trustKey(root, config.text);
  await Deno.mkdir(`${root}/.tern`);
  await Deno.writeTextFile(`${root}/${TRUST_FILE}`, JSON.stringify({ decisions: { [key]: "trusted" } }));
  assertEquals(await decideTrust(root, config, { flag: false }), { trusted: false, how: "no_terminal" });
});

Deno.test("describeServers() shows an unsandboxed server and an HTTP one plainly", () => {
  const lines = describeServers({
    text: "",
    problems: [],
    servers: [
      { name: "a", type: "stdio", command: "x", args: [], env: {}, sandbox: false, network: false },
      { name: "b", type: "http", url: "https://h/mcp", headers: { Authorization: "x" } },
    ],
  });
  assertEquals(lines, ["a: runs x (NOT sandboxed)", "b: HTTP https://h/mcp (headers: Authorization)"]);
});
