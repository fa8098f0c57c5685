import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { Conversation, type Entry } from "../../../src/agent/log/conversation.ts";
import { listSessions } from "../../../src/agent/log/session_list.ts";
import { loadSession } from "../../../src/agent/log/session_load.ts";
import { SessionWriter } from "../../../src/agent/log/session_writer.ts";
import { createFileTracker } from "../../../src/fs/file_tracker.ts";
import { tempProject } from "../../support/temp_project.ts";
import { TERN_GITIGNORE } from "../../../src/agent/state/tern_dir.ts";
import { CALL_STEP, META, record } from "./_session_fixtures.ts";

Deno.test("SessionWriter writes a header and one line per entry; loadSession() reads them back", async () => {
  await using project = await tempProject();
  const entries: Entry[] = [
    { kind: "user", text: "hi" },
    { kind: "assistant", message: { role: "assistant", content: "hello" } },
  ];
  const { writer } = record(project.root, entries);
  const lines = (await Deno.readTextFile(writer.path!)).trimEnd().split("\n").map((line) => JSON.parse(line));
  assertEquals(lines[0].type, "session");
  assertEquals([lines[0].version, lines[0].id, lines[0].model, lines[0].api], [
    1,
    writer.id,
    "fake-model",
    "chat",
  ]);
  assertEquals(lines.length, 3);
  const loaded = await loadSession(project.root, writer.id);
  assertEquals(loaded.entries, entries);
  assertEquals(loaded.repairs, []);
  assertEquals(await Deno.readTextFile(`${project.root}/.tern/.gitignore`), TERN_GITIGNORE);
  assertEquals(await Deno.readTextFile(`${project.root}/.tern/local/.gitignore`), "*\n");
});

Deno.test("continuing a session whose last line was torn ends that line first: the next entries are kept", async () => {
  await using project = await tempProject();
  const { writer } = record(project.root, [{ kind: "user", text: "hi" }]);
  // A tern killed mid-write leaves half a line, with no newline.
  await Deno.writeTextFile(writer.path!, '{"type":"entry","entry":{"kind":"us', { append: true });
  const loaded = await loadSession(project.root, writer.id);
  assertEquals(loaded.repairs, ["ignored a torn last line"]);
  const conversation = new Conversation({ systemPrompt: "s", entries: loaded.entries });
  new SessionWriter(project.root, { loaded }).attach(conversation);
  conversation.append({ kind: "user", text: "again" });
  conversation.append({ kind: "assistant", message: { role: "assistant", content: "kept" } });
  const again = await loadSession(project.root, writer.id);
  assertEquals(again.entries.map((entry) => entry.kind === "user" ? entry.text : entry.kind), [
    "hi",
    "again",
    "assistant",
  ]);
  assertEquals(again.repairs, ["skipped line 3: cut off mid-write (a tern stopped while writing it)"]);
});

Deno.test("a run that never appends leaves no session file", async () => {
  await using project = await tempProject();
  const { writer } = record(project.root, []);
  assertEquals(writer.path, undefined);
  assertEquals(await listSessions(project.root), []);
});

Deno.test("the files the model saw are saved, relative to the root, and restored by real path", async () => {
  await using project = await tempProject();
  const files = createFileTracker();
  const conversation = new Conversation({ systemPrompt: "s", files });
  const writer = new SessionWriter(project.root, { meta: META });
  writer.attach(conversation);
  files.record(`${project.root}/src/a.ts`, { mtimeMs: 1, size: 2, hash: "ab".repeat(32) });
  conversation.append({ kind: "user", text: "x" });
  const text = await Deno.readTextFile(writer.path!);
  assertStringIncludes(text, '"path":"src/a.ts"');
  const loaded = await loadSession(project.root, writer.id);
  assertEquals(loaded.files, [[`${project.root}/src/a.ts`, { mtimeMs: 1, size: 2, hash: "ab".repeat(32) }]]);
});

Deno.test("tool details stay out of the session file; the model's content is kept", async () => {
  await using project = await tempProject();
  const { writer } = record(project.root, [{ kind: "user", text: "go" }, CALL_STEP, {
    kind: "tool_result",
    callId: "c1",
    name: "read_file",
    content: "A",
    isError: false,
    details: { kind: "text", lines: 1 } as never,
  }, {
    kind: "tool_result",
    callId: "c2",
    name: "execute_command",
    content: "B",
    isError: false,
  }]);
  const loaded = await loadSession(project.root, writer.id);
  const result = loaded.entries[2];
  assertEquals(result.kind === "tool_result" && result.details, undefined);
});

Deno.test("sessions refuse a .tern that is a symlink leading outside the project", async () => {
  await using project = await tempProject();
  await using outside = await tempProject();
  await Deno.symlink(outside.root, `${project.root}/.tern`);
  const conversation = new Conversation({ systemPrompt: "s" });
  const writer = new SessionWriter(project.root, { meta: META });
  const warnings: string[] = [];
  writer.onError = (message) => warnings.push(message);
  writer.attach(conversation);
  conversation.append({ kind: "user", text: "x" });
  assertEquals(warnings.length, 1, "refused, said once, and the conversation went on");
  assertStringIncludes(warnings[0], "tern keeps no state in this project: .tern is not a folder");
  assertEquals([...Deno.readDirSync(outside.root)].length, 0);
});

Deno.test("SessionWriter writes the whole session anew when a command removed .tern/, and never throws", async () => {
  await using project = await tempProject();
  const { conversation, writer } = record(project.root, [{ kind: "user", text: "clean up" }]);
  await Deno.remove(`${project.root}/.tern`, { recursive: true }); // what `git clean -fdx` did
  conversation.append({ kind: "assistant", message: { role: "assistant", content: "Cleaned." } });
  const loaded = await loadSession(project.root, writer.id);
  assertEquals(loaded.entries, [
    { kind: "user", text: "clean up" },
    { kind: "assistant", message: { role: "assistant", content: "Cleaned." } },
  ]);
  // A place that cannot be written: the conversation goes on, one warning says it is unsaved.
  const warnings: string[] = [];
  writer.onError = (message) => warnings.push(message);
  await Deno.remove(`${project.root}/.tern`, { recursive: true });
  await Deno.writeTextFile(`${project.root}/.tern`, "a file where the folder was");
  conversation.append({ kind: "user", text: "next" });
  conversation.append({ kind: "user", text: "and next" });
  assertEquals(warnings.length, 1);
  assertStringIncludes(warnings[0], "goes on unsaved");
});

Deno.test("every kind of entry tern writes comes back from its session file as written", async () => {
  await using project = await tempProject();
  const image = { mediaType: "image/png" as const, data: "iVBORw0KGgo=", name: "shot.png" };
  const entries: Entry[] = [
    { kind: "snapshot", tree: "a".repeat(40) },
    { kind: "user", text: "look at @shot.png", images: [image] },
    CALL_STEP,
    {
      kind: "tool_result",
      callId: "c1",
      name: "read_file",
      content: "shot.png",
      isError: false,
      images: [image],
    },
    { kind: "tool_result", callId: "c2", name: "execute_command", content: "ok", isError: false },
    {
      kind: "usage",
      usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12, cachedTokens: 4 },
      model: "m",
    },
    {
      kind: "model_change",
      provider: "anthropic",
      model: "claude-x",
      endpoint: "Anthropic",
      api: "anthropic",
    },
    { kind: "reminder", callId: "c2", text: "not progress" },
    {
      kind: "compaction",
      droppedOutputs: ["c1"],
      abbreviatedCalls: [],
      cutOutputs: [{ callId: "c2", keepChars: 1, savedAs: ".tern/tool-outputs/x.txt", exact: true }],
    },
    { kind: "user", text: "report", from: "tern" },
    { kind: "summary", text: "so far", replaces: 2 },
    { kind: "notice", text: "said" },
    { kind: "rewind", to: 9 },
  ];
  const { writer } = record(project.root, entries);
  const loaded = await loadSession(project.root, writer.id);
  assertEquals(loaded.repairs, []);
  assertEquals(loaded.entries, entries);
});

Deno.test("SessionWriter writes a file's snapshot once per change, not again with every entry", async () => {
  await using project = await tempProject();
  const conversation = new Conversation({ systemPrompt: "s", files: createFileTracker() });
  const writer = new SessionWriter(project.root, { meta: META });
  writer.attach(conversation);
  const real = `${project.root}/a.txt`;
  const seen = { mtimeMs: 1, size: 2, hash: "a".repeat(64) };
  conversation.files.record(real, seen);
  conversation.append({ kind: "user", text: "one" });
  conversation.append({ kind: "user", text: "two" });
  conversation.files.record(real, { ...seen }); // read again, unchanged
  conversation.append({ kind: "user", text: "three" });
  conversation.files.record(real, { ...seen, size: 3, hash: "b".repeat(64) });
  conversation.append({ kind: "user", text: "four" });
  const lines = (await Deno.readTextFile(writer.path!)).trimEnd().split("\n").map((line) => JSON.parse(line));
  const files = lines.filter((line) => line.type === "file").map((line) => line.snapshot.size);
  assertEquals(files, [2, 3]);
  assertEquals((await loadSession(project.root, writer.id)).files, [[real, {
    ...seen,
    size: 3,
    hash: "b".repeat(64),
  }]]);
});
