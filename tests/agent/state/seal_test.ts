import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { createHmac } from "node:crypto";
import {
  claimKey,
  openJson,
  openLine,
  sealJson,
  sealLine,
  StateSeal,
  stateSeal,
} from "../../../src/agent/state/seal.ts";
import { stateDir } from "../../../src/agent/state/tern_dir.ts";
import { tempProject } from "../../support/temp_project.ts";

const seal = new StateSeal(new Uint8Array(32).fill(7));
const other = new StateSeal(new Uint8Array(32).fill(8));

Deno.test("sealJson() and openJson() round-trip; whitespace may change, a member, the label or the key may not", () => {
  const text = sealJson(seal, "trust.json", { decision: "trusted", digest: "abc", parts: { mcp: "x" } });
  assertEquals(openJson(seal, "trust.json", text), {
    decision: "trusted",
    digest: "abc",
    parts: { mcp: "x" },
  });
  const data = JSON.parse(text);
  assertEquals(openJson(seal, "trust.json", JSON.stringify(data)), {
    decision: "trusted",
    digest: "abc",
    parts: { mcp: "x" },
  });
  assertEquals(openJson(seal, "trust.json", text.replace('"abc"', '"abd"')), undefined);
  assertEquals(openJson(seal, "settings.json", text), undefined, "sealed as another file");
  assertEquals(openJson(other, "trust.json", text), undefined, "another directory's key");
  assertEquals(openJson(seal, "trust.json", JSON.stringify({ ...data, seal: "0".repeat(32) })), undefined);
  const unsealed = JSON.stringify({ decision: "trusted", digest: "abc" });
  assertEquals(openJson(seal, "trust.json", unsealed), undefined, "no seal at all");
  for (const bad of ["", "not json", "[1]", "null", '{"seal": 5}']) {
    assertEquals(openJson(seal, "trust.json", bad), undefined, bad);
  }
});

Deno.test("sealLine() keeps a line JSON; openLine() gives the body back only for the same label and key", () => {
  const body = JSON.stringify({ type: "entry", entry: { kind: "user", text: 'say "hi"' } });
  const line = sealLine(seal, "session:a", body);
  assertEquals(JSON.parse(line).entry.text, 'say "hi"');
  assertEquals(openLine(seal, "session:a", line), body);
  assertEquals(openLine(seal, "session:b", line), undefined, "a line moved to another session");
  assertEquals(openLine(other, "session:a", line), undefined);
  assertEquals(openLine(seal, "session:a", line.replace("hi", "ho")), undefined);
  assertEquals(openLine(seal, "session:a", body), undefined, "a line without a seal");
  assertEquals(openLine(seal, "session:a", line.slice(0, -3) + '0"}'), undefined);
  for (const bad of ["", "}", '{"seal":"' + "0".repeat(32) + '"}', line.slice(0, -1)]) {
    assertEquals(openLine(seal, "session:a", bad), undefined, bad);
  }
});

Deno.test("claimKey() makes one key per bound state folder, kept across calls, none without a folder", async () => {
  await using project = await tempProject();
  assertEquals(claimKey(project.root), {}, "no state folder: no key, and none made");
  stateDir(project.root, "");
  const first = stateSeal(project.root)!;
  const again = stateSeal(project.root)!;
  assertEquals(first.mac("x", "y"), again.mac("x", "y"));
  const record = JSON.parse(await Deno.readTextFile(`${project.root}/.tern/local/key.json`));
  assertEquals(record.root.ino, (await Deno.stat(project.root)).ino);
  assertEquals(record.secret.length, 64);
  assertEquals((await Deno.stat(`${project.root}/.tern/local/key.json`)).mode! & 0o777, 0o600);
  assertEquals(
    [...Deno.readDirSync(`${project.root}/.tern/local`)].filter((e) => e.name.endsWith(".tmp")),
    [],
  );
});

Deno.test("a key.json that names another directory (planted by a pull, or copied) is moved aside and replaced", async () => {
  await using mine = await tempProject();
  await using theirs = await tempProject();
  stateDir(mine.root, "");
  stateDir(theirs.root, "");
  const theirKey = stateSeal(theirs.root)!;
  // The attacker's own key file, as a git pull writes it into the user's bound folder.
  await Deno.copyFile(`${theirs.root}/.tern/local/key.json`, `${mine.root}/.tern/local/key.json`);
  const claimed = claimKey(mine.root);
  assertStringIncludes(claimed.note!, "moved .tern/local/key.json to .tern/local/aside/");
  assertStringIncludes(claimed.note!, "nothing it sealed is used");
  assert(claimed.seal!.mac("x", "y") !== theirKey.mac("x", "y"), "the planted key was used");
  assertEquals(claimKey(mine.root).note, undefined, "said once: the new key stays");
  for (const bad of ["{}", "not json", JSON.stringify({ secret: "ab" })]) {
    await Deno.writeTextFile(`${mine.root}/.tern/local/key.json`, bad);
    assertStringIncludes(claimKey(mine.root).note!, "moved .tern/local/key.json");
  }
});

Deno.test("two terns making the key at once agree on one", async () => {
  await using project = await tempProject();
  stateDir(project.root, "");
  const code = `
    import { stateSeal } from "${new URL("../../../src/agent/state/seal.ts", import.meta.url)}";
    console.log(stateSeal(Deno.args[0]).mac("x", "y"));`;
  const runs = await Promise.all(
    Array.from({ length: 4 }, () =>
      new Deno.Command(Deno.execPath(), {
        args: ["eval", "--quiet", code, project.root],
        stdout: "piped",
        stderr: "inherit",
      }).output()),
  );
  const macs = new Set(runs.map((run) => new TextDecoder().decode(run.stdout).trim()));
  assertEquals(macs.size, 1, [...macs].join(" "));
  assertEquals([...macs][0], stateSeal(project.root)!.mac("x", "y"));
});

Deno.test("StateSeal.mac() is HMAC-SHA256 keyed by the secret's hex digits, cut to 128 bits", () => {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const key = Array.from(secret, (byte) => byte.toString(16).padStart(2, "0")).join("");
  for (const text of ["", "x", "é ü 😀", "{}".repeat(5000)]) {
    const expected = createHmac("sha256", key).update(`session:a\0${text}`).digest("hex").slice(0, 32);
    assertEquals(new StateSeal(secret).mac("session:a", text), expected);
  }
});
