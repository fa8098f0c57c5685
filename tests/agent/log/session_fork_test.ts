import { assertEquals, assertThrows } from "../../support/assert.ts";
import { Conversation, type Entry } from "../../../src/agent/log/conversation.ts";
import { listSessions } from "../../../src/agent/log/session_list.ts";
import { loadSession } from "../../../src/agent/log/session_load.ts";
import { SessionError } from "../../../src/agent/log/session_file.ts";
import { SessionWriter } from "../../../src/agent/log/session_writer.ts";
import { forkSession } from "../../../src/agent/log/session_fork.ts";
import { tempProject } from "../../support/temp_project.ts";

const META = { tern: "0.1.0", provider: "deepseek", model: "fake-model", api: "chat" };

const turn = (prompt: string, answer: string): Entry[] => [
  { kind: "user", text: prompt },
  { kind: "assistant", message: { role: "assistant", content: answer } },
];

function record(root: string, entries: Entry[], name?: string): SessionWriter {
  const conversation = new Conversation({ systemPrompt: "s" });
  const writer = new SessionWriter(root, { meta: META });
  writer.attach(conversation);
  if (name) writer.rename(name); // before the first entry: held until the file exists
  for (const entry of entries) conversation.append(entry);
  return writer;
}

Deno.test("SessionWriter.rename() names the session, before or after its first entry; the last name wins", async () => {
  await using project = await tempProject();
  const writer = record(project.root, turn("one", "1"), "first name");
  assertEquals((await loadSession(project.root, writer.id)).name, "first name");
  writer.rename("second name");
  const loaded = await loadSession(project.root, writer.id);
  assertEquals([loaded.name, loaded.entries, loaded.repairs], ["second name", turn("one", "1"), []]);
  assertEquals((await listSessions(project.root))[0].name, "second name");
});

Deno.test("forkSession() writes a copy under a new id and leaves the original's bytes as they were", async () => {
  await using project = await tempProject();
  const writer = record(project.root, [...turn("one", "1"), ...turn("two", "2")], "named");
  const before = await Deno.readTextFile(writer.path!);
  const copy = forkSession(project.root, await loadSession(project.root, writer.id));
  assertEquals(await Deno.readTextFile(writer.path!), before);
  assertEquals(copy.header.forkedFrom, writer.id);
  assertEquals(copy.header.id === writer.id, false);
  assertEquals([copy.entries, copy.name], [[...turn("one", "1"), ...turn("two", "2")], undefined]);
  const reloaded = await loadSession(project.root, copy.header.id);
  assertEquals(reloaded.entries, copy.entries);
});

Deno.test("forkSession() with prompts keeps the turns up to that prompt and forgets the files seen", async () => {
  await using project = await tempProject({ "a.txt": "A\n" });
  const writer = record(project.root, [...turn("one", "1"), ...turn("two", "2"), ...turn("three", "3")]);
  const loaded = await loadSession(project.root, writer.id);
  loaded.files.push([`${project.root}/a.txt`, { hash: "h", size: 2, mtimeMs: 1 } as never]);
  const copy = forkSession(project.root, loaded, { prompts: 2 });
  assertEquals([copy.entries, copy.files], [[...turn("one", "1"), ...turn("two", "2")], []]);
});

Deno.test("forkSession() refuses a prompt number the session does not have", async () => {
  await using project = await tempProject();
  const writer = record(project.root, turn("one", "1"));
  const loaded = await loadSession(project.root, writer.id);
  for (const prompts of [0, 2, 1.5]) {
    assertThrows(() => forkSession(project.root, loaded, { prompts }), SessionError, "fork after 1 to 1");
  }
});
