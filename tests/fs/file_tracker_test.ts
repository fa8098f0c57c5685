import {
  assertEquals,
  assertErrorLike,
  assertMatch,
  assertRejects,
  assertStrictEquals,
} from "../support/assert.ts";
import { join } from "node:path";
import {
  createFileTracker,
  guardFresh,
  recordWrite,
  snapshotOf,
  snapshotOfPath,
} from "../../src/fs/file_tracker.ts";
import { ToolError } from "../../src/fs/tool_error.ts";
import { sh, tempProject } from "../tools/_helpers.ts";

const HELLO_SHA256 = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

Deno.test("snapshotOf() takes the mtime from the file info and hashes the bytes with SHA-256", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.txt");
  await Deno.writeTextFile(path, "hello");
  const info = await Deno.lstat(path);
  assertEquals(await snapshotOf(new TextEncoder().encode("hello"), info), {
    mtimeMs: info.mtime!.getTime(),
    size: 5,
    hash: HELLO_SHA256,
  });
});

Deno.test("createFileTracker() records and returns snapshots by path, and lists them", () => {
  const files = createFileTracker();
  const snapshot = { mtimeMs: 1, size: 2, hash: "ab" };
  files.record("/p/a", snapshot);
  assertEquals(files.get("/p/a"), snapshot);
  assertStrictEquals(files.get("/p/b"), undefined);
  assertEquals(files.entries(), [["/p/a", snapshot]]);
});

Deno.test("guardFresh() refuses an unread file, and one whose bytes changed, and nothing without a tracker", async () => {
  const files = createFileTracker();
  const target = { real: "/p/a.txt", rel: "a.txt" };
  const seen = { mtimeMs: 1, size: 5, hash: HELLO_SHA256 };
  const now = (snapshot: typeof seen) => () => Promise.resolve(snapshot);
  await guardFresh(undefined, target, now(seen), "edit");
  assertErrorLike(
    await assertRejects(() => guardFresh(files, target, now(seen), "edit")),
    new ToolError(
      "a.txt has not been read in this conversation: read it first with read_file, then edit it.",
      "stale",
    ),
  );
  files.record(target.real, seen);
  await guardFresh(files, target, now(seen), "edit");
  // A touch moves the mtime but leaves the bytes the model saw: no reason to refuse.
  await guardFresh(files, target, now({ ...seen, mtimeMs: 99 }), "overwrite");
  assertMatch(
    String(await assertRejects(() => guardFresh(files, target, now({ ...seen, hash: "0" }), "overwrite"))),
    /^ToolError: a.txt changed since you read it; read it again with read_file, then overwrite it/,
  );
});

Deno.test("recordWrite() records the written bytes with the file's new mtime", async () => {
  await using p = await tempProject();
  const path = join(p.root, "a.txt");
  await Deno.writeTextFile(path, "hello");
  const files = createFileTracker();
  await recordWrite(files, path, new TextEncoder().encode("hello"));
  assertStrictEquals(files.get(path)?.hash, HELLO_SHA256);
  assertStrictEquals(files.get(path)?.mtimeMs, (await Deno.lstat(path)).mtime!.getTime());
});

Deno.test("snapshotOfPath() hashes a regular file's raw bytes and gives null for anything else", async () => {
  await using p = await tempProject();
  const path = join(p.root, "raw.bin");
  await Deno.writeFile(path, new Uint8Array([0xff, 0xfe, 0x00]));
  assertEquals(
    await snapshotOfPath(path),
    await snapshotOf(await Deno.readFile(path), await Deno.lstat(path)),
  );
  await sh("mkfifo fifo && truncate -s 11M big", p.root);
  assertStrictEquals(await snapshotOfPath(join(p.root, "fifo")), null);
  assertStrictEquals(await snapshotOfPath(join(p.root, "big")), null);
});
