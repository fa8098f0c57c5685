import { assert, assertEquals } from "../../support/assert.ts";
import { listSessions, pruneSessions } from "../../../src/agent/log/session_list.ts";
import { tempProject } from "../../support/temp_project.ts";
import { META, record } from "./_session_fixtures.ts";

Deno.test("listSessions() is newest first with turns and the first prompt; pruneSessions() keeps N", async () => {
  await using project = await tempProject();
  const ids: string[] = [];
  for (const [i, prompt] of ["one", "two", "three"].entries()) {
    const { writer } = record(project.root, [{ kind: "user", text: prompt }]);
    ids.push(writer.id);
    // Last activity a minute apart, set outright: the order cannot depend on how fast the writes ran.
    const at = new Date(Date.UTC(2025, 0, 1, 12, i));
    await Deno.utime(`${project.root}/.tern/local/sessions/${writer.id}.jsonl`, at, at);
  }
  await Deno.writeTextFile(`${project.root}/.tern/local/sessions/junk.jsonl`, "not json\n");
  const listed = await listSessions(project.root);
  assertEquals(listed.map((session) => session.firstPrompt), ["three", "two", "one"]);
  assertEquals(listed[0].turns, 1);
  assertEquals(await pruneSessions(project.root, { keep: 1 }), [ids[1], ids[0]]);
  assertEquals((await listSessions(project.root)).map((session) => session.id), [ids[2]]);
  await Deno.stat(`${project.root}/.tern/local/sessions/junk.jsonl`); // not a session: never deleted
});

Deno.test("pruneSessions() deletes by the file's own name: a header naming another id is neither listed nor followed", async () => {
  await using project = await tempProject({ "victim.jsonl": "the user's file\n" });
  const { writer } = record(project.root, [{ kind: "user", text: "real" }]);
  const dir = `${project.root}/.tern/local/sessions`;
  const forged = JSON.stringify({
    type: "session",
    version: 1,
    id: "../../../victim",
    startedAt: "",
    ...META,
  });
  await Deno.writeTextFile(`${dir}/forged.jsonl`, forged + "\n");
  assertEquals((await listSessions(project.root)).map((session) => session.id), [writer.id]);
  assertEquals(await pruneSessions(project.root, { keep: 0 }), [writer.id]);
  assertEquals(await Deno.readTextFile(`${project.root}/victim.jsonl`), "the user's file\n");
  assert(await Deno.lstat(`${dir}/forged.jsonl`).then(() => true));
});
