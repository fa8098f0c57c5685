import { assert, assertEquals, assertMatch, assertStrictEquals } from "../support/assert.ts";
import { basename, dirname, join } from "node:path";
import {
  OutsideRootError,
  readTextFile,
  resolveForRead,
  resolveForWrite,
  resolvePath,
} from "../../src/fs/path_guard.ts";
import { isSecretEnvName, SecretFileError } from "../../src/fs/secret_env.ts";
import { isInside } from "../../src/fs/path_basics.ts";
import { openNoBlock, shownByKernel } from "../../src/fs/opened_file.ts";
import { ToolError } from "../../src/fs/tool_error.ts";
import { call, readFileTool, sh, tempProject } from "../tools/_helpers.ts";

/** Asserts that `promise` rejects with a ToolError whose message matches and shows no outside path. */
async function refused(promise: Promise<unknown>, pattern: RegExp, hidden: string[] = []): Promise<string> {
  const error = await promise.then(() => null, (e) => e);
  assert(error instanceof ToolError, `expected a ToolError, got ${error}`);
  assertMatch(error.message, pattern);
  for (const text of hidden) {
    assert(!error.message.includes(text), `message reveals ${text}: ${error.message}`);
  }
  return error.message;
}

Deno.test("isInside() is separator-aware: /proj-evil is not inside /proj", () => {
  assertStrictEquals(isInside("/proj", "/proj"), true);
  assertStrictEquals(isInside("/proj", "/proj/a/b"), true);
  assertStrictEquals(isInside("/proj", "/proj/..foo"), true);
  assertStrictEquals(isInside("/proj", "/proj-evil"), false);
  assertStrictEquals(isInside("/proj", "/proj-evil/x"), false);
  assertStrictEquals(isInside("/proj", "/"), false);
  assertStrictEquals(isInside("/proj", "/etc/passwd"), false);
});

Deno.test("resolvePath() accepts relative and in-root absolute paths", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "a.txt"), "x");
  const relative = await resolvePath(p.root, "a.txt");
  const absolute = await resolvePath(p.root, join(p.root, "a.txt"));
  assertEquals([relative.real, relative.rel], [join(p.root, "a.txt"), "a.txt"]);
  assertEquals([absolute.real, absolute.rel], [join(p.root, "a.txt"), "a.txt"]);
  assertStrictEquals((await resolvePath(p.root, ".")).rel, ".");
});

Deno.test("resolvePath() refuses ../ escapes, absolute paths outside and the /proj-evil sibling", async () => {
  await using p = await tempProject();
  await refused(resolvePath(p.root, "../outside/secret.txt"), /outside the project root/);
  await refused(resolvePath(p.root, "a/../../outside"), /outside the project root/);
  await refused(resolvePath(p.root, "/etc/passwd"), /outside the project root/);
  await refused(resolvePath(p.root, join(p.evil, "secret.txt")), /outside the project root/);
  await refused(resolvePath(p.root, "../proj-evil/secret.txt"), /outside the project root/);
});

Deno.test("resolvePath() takes ~ and %2e%2e literally, as names inside the root", async () => {
  await using p = await tempProject();
  const tilde = await resolvePath(p.root, "~/x");
  assertEquals([tilde.real, tilde.info], [join(p.root, "~", "x"), null]);
  const encoded = await resolvePath(p.root, "%2e%2e/%2e%2e/etc/passwd");
  assertStrictEquals(encoded.real, join(p.root, "%2e%2e", "%2e%2e", "etc", "passwd"));
});

Deno.test("resolvePath() refuses NUL bytes, empty paths and paths over 4096 characters", async () => {
  await using p = await tempProject();
  await refused(resolvePath(p.root, "a\0b"), /NUL byte/);
  await refused(resolvePath(p.root, ""), /path is empty/);
  const message = await refused(
    resolvePath(p.root, "a/".repeat(2500)),
    /5000 characters long; the limit is 4096/,
  );
  assert(message.length < 200);
});

Deno.test("resolvePath() refuses a symlink to /etc/passwd without showing the target", async () => {
  await using p = await tempProject();
  await Deno.symlink("/etc/passwd", join(p.root, "passwd"));
  const message = await refused(resolvePath(p.root, "passwd"), /outside the project root/, ["/etc"]);
  assertMatch(message, /"passwd"/);
  const error = await resolvePath(p.root, "passwd").catch((e) => e);
  assert(error instanceof OutsideRootError);
});

Deno.test("resolvePath() refuses paths through a symlinked directory that points outside", async () => {
  await using p = await tempProject();
  await Deno.symlink(p.outside, join(p.root, "out"));
  await refused(resolvePath(p.root, "out"), /outside/, [p.outside]);
  await refused(resolvePath(p.root, "out/secret.txt"), /outside/, [p.outside]);
  await refused(resolvePath(p.root, "out/new/deeper.txt"), /outside/, [p.outside]);
});

Deno.test("resolvePath() follows a dangling symlink to where it would create, and refuses one leading out", async () => {
  await using p = await tempProject();
  await Deno.symlink("missing-target.txt", join(p.root, "inside-link"));
  await Deno.symlink(join(p.outside, "nope.txt"), join(p.root, "outside-link"));
  const inside = await resolvePath(p.root, "inside-link");
  assertEquals([inside.rel, inside.info], ["missing-target.txt", null]);
  await refused(resolvePath(p.root, "outside-link"), /outside/, [p.outside]);
});

Deno.test("resolvePath() resolves symlinks that stay inside, including chains and ../ in targets", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "src/deep"), { recursive: true });
  await Deno.writeTextFile(join(p.root, "src/deep/f.txt"), "x");
  await Deno.symlink("src/deep", join(p.root, "d"));
  await Deno.symlink("../../d/f.txt", join(p.root, "src/deep/up"));
  assertStrictEquals((await resolvePath(p.root, "d/f.txt")).rel, "src/deep/f.txt");
  assertStrictEquals((await resolvePath(p.root, "src/deep/up")).rel, "src/deep/f.txt");
  await Deno.symlink("../../..", join(p.root, "src/deep/escape"));
  await refused(resolvePath(p.root, "src/deep/escape/outside/secret.txt"), /outside/);
});

Deno.test("resolvePath() refuses a symlink loop clearly", async () => {
  await using p = await tempProject();
  await Deno.symlink("b", join(p.root, "a"));
  await Deno.symlink("a", join(p.root, "b"));
  await refused(resolvePath(p.root, "a"), /too many levels of symbolic links/);
});

Deno.test("resolvePath() says when a path component is a file", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, "file.txt"), "x");
  await refused(resolvePath(p.root, "file.txt/sub/x.txt"), /"file.txt" is a file, not a directory/);
});

Deno.test("resolveForRead() refuses a FIFO fast, before opening it", async () => {
  await using p = await tempProject();
  await sh("mkfifo pipe", p.root);
  // Opening a FIFO with no writer blocks forever: reaching these refusals at all proves it was never opened.
  await refused(resolveForRead(p.root, "pipe"), /not a regular file \(it is a FIFO/);
  await refused(readTextFile(p.root, "pipe"), /not a regular file/);
});

Deno.test("resolveForRead() refuses directories, missing files and files over 10 MB", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "dir"));
  await sh("truncate -s 11M big.bin", p.root);
  await refused(resolveForRead(p.root, "dir"), /is a directory: use list_dir/);
  await refused(resolveForRead(p.root, "nope.txt"), /"nope.txt" not found/);
  await refused(resolveForRead(p.root, "big.bin"), /file is 11\.0 MB; over the 10 MB limit/);
});

Deno.test("readTextFile() refuses invalid UTF-8 as binary and strips a BOM for display", async () => {
  await using p = await tempProject();
  await Deno.writeFile(join(p.root, "latin1.txt"), new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await Deno.writeFile(join(p.root, "bom.txt"), new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]));
  await refused(readTextFile(p.root, "latin1.txt"), /binary file, 5 bytes/);
  const bom = await readTextFile(p.root, "bom.txt");
  assertEquals([bom.text, bom.bom, bom.bytes], ["hi", true, 5]);
});

Deno.test("resolveForWrite() accepts missing files and refuses directories and FIFOs", async () => {
  await using p = await tempProject();
  await Deno.mkdir(join(p.root, "dir"));
  await sh("mkfifo pipe", p.root);
  const fresh = await resolveForWrite(p.root, "new/dir/file.txt");
  assertEquals([fresh.rel, fresh.info], ["new/dir/file.txt", null]);
  await refused(resolveForWrite(p.root, "dir"), /is a directory/);
  await refused(resolveForWrite(p.root, "pipe"), /not a regular file/);
  await refused(resolveForWrite(p.root, "."), /is a directory/);
});

Deno.test("isSecretEnvName() is true for .env and .env.* in any case, false for the templates", () => {
  for (
    const name of [
      ".env",
      ".env.local",
      ".env.production",
      ".ENV",
      ".Env.Local",
      ".env.example.local",
      ".env.",
    ]
  ) {
    assertStrictEquals(isSecretEnvName(name), true, name);
  }
  for (
    const name of [".env.example", ".env.sample", ".env.template", ".ENV.EXAMPLE", "env", ".envrc", "a.env"]
  ) {
    assertStrictEquals(isSecretEnvName(name), false, name);
  }
});

Deno.test("resolveForRead() refuses .env files, also through a symlink, saying why and what the user can do", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, ".env"), "DEEPSEEK_API_KEY=sk-secret\n");
  await Deno.writeTextFile(join(p.root, ".env.local"), "TOKEN=sk-local\n");
  await Deno.mkdir(join(p.root, "config"));
  await Deno.writeTextFile(join(p.root, "config/.env.production"), "KEY=sk-prod\n");
  await Deno.symlink(".env", join(p.root, "notes.txt"));
  await Deno.writeTextFile(join(p.root, "plain.txt"), "x\n");
  await Deno.symlink("plain.txt", join(p.root, ".env.staging"));
  for (
    const path of [
      ".env",
      ".env.local",
      "config/.env.production",
      "notes.txt",
      ".env.staging",
      ".env.missing",
    ]
  ) {
    const message = await refused(
      readTextFile(p.root, path),
      /refused: \.env files hold secrets \(API keys\)/,
      [
        "sk-",
      ],
    );
    assertMatch(message, /tern does not read them\. If the user wants part of it read, they can paste/);
    const error = await resolveForRead(p.root, path).catch((e) => e);
    assert(error instanceof SecretFileError, path);
  }
});

Deno.test("readTextFile() reads .env.example, .env.sample and .env.template", async () => {
  await using p = await tempProject();
  for (const name of [".env.example", ".env.sample", ".env.template"]) {
    await Deno.writeTextFile(join(p.root, name), "API_KEY=your-key-here\n");
    assertStrictEquals((await readTextFile(p.root, name)).text, "API_KEY=your-key-here\n");
  }
});

Deno.test("read_file refuses .env through the guard and reads .env.example", async () => {
  await using p = await tempProject();
  await Deno.writeTextFile(join(p.root, ".env"), "TERN_API_KEY=sk-secret\n");
  await Deno.writeTextFile(join(p.root, ".env.example"), "TERN_API_KEY=\n");
  const secret = await call(readFileTool, { path: ".env" }, p.ctx);
  assertStrictEquals(secret.isError, true);
  assertMatch(secret.content, /^"\.env": refused: \.env files hold secrets/);
  assert(!secret.content.includes("sk-secret"));
  assertEquals(await call(readFileTool, { path: ".env.example" }, p.ctx), {
    content: "     1\tTERN_API_KEY=",
    isError: false,
  });
});

Deno.test("shownByKernel() proves a regular file from the kernel's view of its directory, odd names included", async () => {
  const onLinux = Deno.build.os === "linux";
  await using p = await tempProject({
    "a.txt": "x",
    "empty.txt": "",
    "sp ace\nnew-line é.txt": "y",
    "d/b.txt": "z",
  });
  for (const name of ["a.txt", "empty.txt", "sp ace\nnew-line é.txt", "d/b.txt"]) {
    const real = join(p.root, name);
    await using file = await openNoBlock(real);
    assertEquals(await shownByKernel(dirname(real), basename(real), file.info), onLinux, name);
  }
});

Deno.test("shownByKernel() shows nothing for another inode, a symlink, a wrong directory or a missing one", async () => {
  await using p = await tempProject({ "a.txt": "x", "b.txt": "y" });
  await Deno.symlink("a.txt", join(p.root, "link.txt"));
  await using file = await openNoBlock(join(p.root, "a.txt"));
  assertEquals(await shownByKernel(p.root, "b.txt", file.info), false, "another inode");
  assertEquals(await shownByKernel(p.root, "link.txt", file.info), false, "a symlink to it");
  assertEquals(await shownByKernel(p.outside, "a.txt", file.info), false, "a directory without it");
  assertEquals(await shownByKernel(join(p.root, "gone"), "a.txt", file.info), false, "a missing directory");
  // A directory reached through a symlink is not the kernel's name for it.
  await Deno.symlink(p.root, join(p.outside, "via"));
  assertEquals(await shownByKernel(join(p.outside, "via"), "a.txt", file.info), false, "a symlinked path");
});
