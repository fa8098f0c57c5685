/**
 * Smoke test of a built tern binary (run by the release workflow on each native runner):
 * `deno run -A .ci/smoke_binary.ts dist/tern`. It checks `tern --version`, one headless turn against the test
 * fake model server, and that `--allow-read=.` means the directory the binary was started in: two runs from
 * two directories each read their own file and are refused the other's.
 */
import { startFakeModel } from "../tests/support/fake_model_server.ts";

const binary = Deno.args[0];
if (!binary) throw new Error("usage: smoke_binary.ts PATH_TO_TERN");
const tern = await Deno.realPath(binary);
const decoder = new TextDecoder();

function check(ok: boolean, what: string, detail = ""): void {
  if (!ok) throw new Error(`smoke: ${what}${detail ? `\n${detail}` : ""}`);
  console.log(`smoke: ok: ${what}`);
}

const version = await new Deno.Command(tern, { args: ["--version"] }).output();
check(
  version.success && /^tern \d+\.\d+\.\d+ \(\w+\)/.test(decoder.decode(version.stdout)),
  "tern --version",
);

/** One `tern -p` in `dir` whose model reads `own` and then `other` (an absolute path elsewhere). */
async function runIn(dir: string, own: string, other: string) {
  await using model = startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: own }) }] },
    { toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: other }) }] },
    { text: "smoke done" },
  ]);
  const run = await new Deno.Command(tern, {
    args: ["-p", "read the files"],
    cwd: dir,
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "smoke", TERN_MODEL: "fake", NO_COLOR: "1" },
  }).output();
  check(
    run.code === 0 && decoder.decode(run.stdout) === "smoke done\n",
    `tern -p in ${dir}`,
    decoder.decode(run.stderr),
  );
  const last = (index: number) => {
    const messages = model.requests[index].messages as { content: string }[];
    return messages.at(-1)!.content;
  };
  return { own: last(1), other: last(2) };
}

const first = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-smoke-a-" }));
const second = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-smoke-b-" }));
await Deno.writeTextFile(`${first}/mine.txt`, "alpha-secret\n");
await Deno.writeTextFile(`${second}/mine.txt`, "bravo-secret\n");
const a = await runIn(first, "mine.txt", `${second}/mine.txt`);
check(
  a.own.includes("alpha-secret") && !a.other.includes("bravo-secret"),
  "run from A reads A, not B",
  a.other,
);
const b = await runIn(second, "mine.txt", `${first}/mine.txt`);
check(
  b.own.includes("bravo-secret") && !b.other.includes("alpha-secret"),
  "run from B reads B, not A",
  b.other,
);
await Deno.remove(first, { recursive: true });
await Deno.remove(second, { recursive: true });
