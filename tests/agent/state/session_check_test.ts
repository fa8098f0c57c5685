/**
 * The session check at start reads only files changed since the last check (their ctime, which no program
 * can set back); the record of how far it got is sealed, so a planted or forged one skips nothing.
 */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { checkOwnState } from "../../../src/agent/state/check.ts";
import { openJson, sealJson, sealLine, StateSeal, stateSeal } from "../../../src/agent/state/seal.ts";
import { stateDir } from "../../../src/agent/state/tern_dir.ts";
import { Conversation } from "../../../src/agent/log/conversation.ts";
import { SessionWriter } from "../../../src/agent/log/session_writer.ts";
import { tempProject } from "../../support/temp_project.ts";

const META = { tern: "test", provider: "deepseek", model: "m", api: "chat" };
const FAR = Date.UTC(2999, 0, 1);

function ownSession(root: string, text: string): string {
  const conversation = new Conversation({ systemPrompt: "s" });
  const writer = new SessionWriter(root, { meta: META });
  writer.attach(conversation);
  conversation.append({ kind: "user", text });
  return writer.id;
}

/** A session file whose header a forger sealed (a git pull's, say); returns its name. */
function plantedSession(root: string, id = "29991231-235959-beef"): string {
  const forger = new StateSeal(new Uint8Array(32).fill(7));
  const header = JSON.stringify({ type: "session", version: 1, id, startedAt: "", ...META });
  Deno.writeTextFileSync(
    `${stateDir(root, "sessions")}/${id}.jsonl`,
    sealLine(forger, `session:${id}`, header) + "\n",
  );
  return `${id}.jsonl`;
}

Deno.test("the session check keeps a sealed record of how far it read, and a file added later is read", async () => {
  await using project = await tempProject();
  ownSession(project.root, "mine");
  assertEquals(checkOwnState(project.root), undefined);
  const record = `${stateDir(project.root, "")}/sessions-checked.json`;
  const upTo = openJson(stateSeal(project.root)!, "sessions-checked.json", Deno.readTextFileSync(record))
    ?.upTo;
  assert(typeof upTo === "number" && upTo > 0, `record: ${Deno.readTextFileSync(record)}`);
  const planted = plantedSession(project.root);
  assertStringIncludes(checkOwnState(project.root) ?? "", `.tern/local/sessions/${planted}`);
});

Deno.test("a planted or forged record of the session check skips nothing", async () => {
  await using project = await tempProject();
  ownSession(project.root, "mine");
  checkOwnState(project.root);
  const record = `${stateDir(project.root, "")}/sessions-checked.json`;
  const forger = new StateSeal(new Uint8Array(32).fill(7));
  for (
    const text of [JSON.stringify({ upTo: FAR }), sealJson(forger, "sessions-checked.json", { upTo: FAR })]
  ) {
    const planted = plantedSession(project.root);
    Deno.writeTextFileSync(record, text);
    assertStringIncludes(checkOwnState(project.root) ?? "", `.tern/local/sessions/${planted}`);
  }
});

/** Until the clock is 50 ms into its next second (Deno gives ctime in whole seconds). */
function nextSecond(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1_050 - (Date.now() % 1_000)));
}

Deno.test("a session file rewritten in place after the check is read again", async () => {
  await using project = await tempProject();
  const id = ownSession(project.root, "mine");
  // A later session moves the record past the first file's times, so those times alone would skip it.
  await nextSecond();
  ownSession(project.root, "later");
  assertEquals(checkOwnState(project.root), undefined);
  await nextSecond();
  const file = `${stateDir(project.root, "sessions")}/${id}.jsonl`;
  // The same inode, new bytes, the old times put back: only the ctime tells that it changed.
  const { mtime, atime } = Deno.statSync(file);
  const forged = JSON.stringify({ type: "session", version: 1, id, startedAt: "", ...META });
  Deno.writeTextFileSync(file, forged + "\n");
  Deno.utimeSync(file, atime!, mtime!);
  assertStringIncludes(checkOwnState(project.root) ?? "", `.tern/local/sessions/${id}.jsonl`);
});
