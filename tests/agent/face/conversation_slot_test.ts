import { assert, assertEquals, assertThrows } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { testSession } from "../../support/session.ts";
import { tempProject } from "../../support/temp_project.ts";
import { loadSession } from "../../../src/agent/log/session_load.ts";

Deno.test("a session's accessors follow its session file: the id at once, the path from the first entry, a name, a new id after clear()", async () => {
  await using project = await tempProject({});
  await using model = startFakeModel([{ text: "hello back" }]);
  const session = await testSession(project.root, { save: true, config: { baseUrl: model.url } });
  const id = session.sessionId;
  assert(id !== undefined);
  assertEquals(session.transcriptPath, undefined, "no file before the first entry");
  await session.run("hello");
  const path = session.transcriptPath as string | undefined; // written now: the assertion above no longer holds
  assert(path?.endsWith(`/.tern/local/sessions/${id}.jsonl`), path);
  assertEquals(session.entries[0], { kind: "user", text: "hello" });
  assertEquals(session.liveEntries()[0], { kind: "user", text: "hello" });
  session.rename("login fix");
  assertEquals((await loadSession(project.root, id)).name, "login fix");
  session.clear();
  assert(session.sessionId !== undefined && session.sessionId !== id);
  assertEquals([session.entries.length, session.transcriptPath], [0, undefined]);
});

Deno.test("a session saved nowhere (--no-session) has no id or path, and rename() throws", async () => {
  await using project = await tempProject({});
  const session = await testSession(project.root);
  assertEquals([session.sessionId, session.transcriptPath], [undefined, undefined]);
  assertThrows(() => session.rename("x"), Error, "not saved");
});

Deno.test("approvals lists the tools answered 'for this session'; toolNames() is every tool, sorted", async () => {
  await using project = await tempProject({});
  await using model = startFakeModel([
    { toolCalls: [{ name: "write_file", arguments: '{"path":"x.txt","content":"x"}' }] },
    { text: "written" },
  ]);
  const session = await testSession(project.root, { config: { baseUrl: model.url } });
  assertEquals(session.approvals, []);
  await session.run("write x.txt", { approve: session.gate(() => Promise.resolve({ kind: "session" })) });
  assertEquals(session.approvals, ["write_file"]);
  const names = session.toolNames();
  assert(names.includes("read_file") && names.includes("write_file"), names.join(", "));
  assertEquals(names, [...names].sort());
  assert(session.offeredToolNames().every((name) => names.includes(name)));
  session.clear();
  assertEquals(session.approvals, [], "a new conversation forgets them");
});
