/**
 * What loading a saved session had to leave out (a torn last line, say: a tern killed mid-write) is said
 * through every door that resumes one: `-c`, `-r ID --fork` and ACP's `session/load`. The session still
 * loads and the conversation goes on.
 */
import * as acp from "@agentclientprotocol/sdk";
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { startAcp } from "./support/acp.ts";
import { tempProject } from "./support/temp_project.ts";

const env = (url: string) => ({ TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" });

/** A project with one saved session whose file ends in a torn line; resolves with the root and the id. */
async function tornSession(url: string, root: string): Promise<string> {
  const first = await runTern({ cwd: root, args: ["-p", "say hi"], env: env(url) });
  assertEquals(first.code, 0, first.stderr);
  const dir = `${root}/.tern/local/sessions`;
  const [file] = [...Deno.readDirSync(dir)].map((entry) => entry.name).filter((name) =>
    name.endsWith(".jsonl")
  );
  Deno.writeTextFileSync(`${dir}/${file}`, '{"type":"entry","entry":{"kind":"us', { append: true });
  return file.slice(0, -".jsonl".length);
}

Deno.test("a resumed session's repairs are said by -c, by --fork (naming the original) and over ACP's load", async () => {
  await using model = startFakeModel(() => ({ text: "Hello." }));
  await using project = await tempProject();
  const id = await tornSession(model.url, project.root);

  const resumed = await runTern({ cwd: project.root, args: ["-c", "-p", "again"], env: env(model.url) });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertStringIncludes(resumed.stderr, `tern: session ${id}: ignored a torn last line`);
  assertEquals(resumed.stdout.trim(), "Hello.");
  // The torn line was ended before the next one: the prompt after it is still there at the next load.
  const third = await runTern({ cwd: project.root, args: ["-c", "-p", "third"], env: env(model.url) });
  assertStringIncludes(third.stderr, `tern: session ${id}: skipped line 5: cut off mid-write`);
  const prompts = (model.requests.at(-1)!.messages as { role: string; content: string }[])
    .filter((message) => message.role === "user").map((message) => message.content);
  assertEquals(prompts, ["say hi", "again", "third"]);

  const forked = await runTern({
    cwd: project.root,
    args: ["-r", id, "--fork", "-p", "fork"],
    env: env(model.url),
  });
  assertEquals(forked.code, 0, forked.stderr);
  assertStringIncludes(
    forked.stderr,
    `skipped line 5: cut off mid-write (a tern stopped while writing it) (in the original, ${id})`,
  );

  await using tern = await startAcp(project.root, [], env(model.url));
  await acp.client({ name: "tern-tests" })
    .onNotification(acp.methods.client.session.update, () => {})
    .connectWith(tern.stream, async (agent) => {
      await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      await agent.request(acp.methods.agent.session.load, {
        sessionId: id,
        cwd: project.root,
        mcpServers: [],
      });
      const next = await agent.request(acp.methods.agent.session.prompt, {
        sessionId: id,
        prompt: [{ type: "text", text: "and now?" }],
      });
      assertEquals(next.stopReason, "end_turn");
    });
  assertStringIncludes(tern.stderr(), `session ${id}: skipped line 5: cut off mid-write`);
});
