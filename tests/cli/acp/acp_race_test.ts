/**
 * Racing writes through `tern acp`, the front end that once skipped the file wall: 1,000 writes while a
 * process swaps a directory of the project for a symlink to outside, with the helper SIGKILLed first
 * (restarted once, said), and again with perl hidden (every write refused, said plainly). Nothing outside the
 * project is created or changes mode. The writes come in several prompts of a few turns each: within one
 * task the runaway guard rightly stops a model whose every step meets the same error.
 */
import * as acp from "@agentclientprotocol/sdk";
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { ternRunArgs } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";
import { testNeeding } from "../../support/requires.ts";
import { canHidePerl, spawnIn, withPerlHidden } from "../../support/hide_perl.ts";

const WRITES = 1000;
const PER_TURN = 50;
/** Tool turns a prompt makes before the model answers (under the runaway guard's stop). */
const TURNS_PER_PROMPT = 4;

/** `d` is always the directory or a symlink to outside (renameat2 RENAME_EXCHANGE in a loop). */
const RACER = `
import ctypes, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
os.chdir(sys.argv[1])
done = []
threading.Thread(target=lambda: (sys.stdin.read(), done.append(1)), daemon=True).start()
print("racing", flush=True)
while not done:
    libc.renameat2(-100, b"d", -100, b"d.link", 2)
`;

/** The tool results in a request: the writes made so far. */
function writesMade(body: Record<string, unknown>): number {
  return (body.messages as { role: string }[]).filter((message) => message.role === "tool").length;
}

/** The writes, PER_TURN calls a turn and TURNS_PER_PROMPT turns a prompt, then an answer. */
function script(body: Record<string, unknown>) {
  const messages = body.messages as { role: string }[];
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const turns = messages.slice(lastUser).filter((message) => message.role === "assistant").length;
  const made = writesMade(body);
  if (made >= WRITES || turns >= TURNS_PER_PROMPT) return { text: "written" };
  const calls = Array.from({ length: PER_TURN }, (_, i) => {
    const n = made + i;
    const path = n % 2 === 0 ? `d/w-${n}.sh` : `d/n-${n}/x.sh`;
    return { name: "write_file", arguments: JSON.stringify({ path, content: `echo ${n}\n` }) };
  });
  return { toolCalls: calls };
}

/** Every entry under `dir` with its mode, for a before/after comparison. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const info = await Deno.lstat(`${dir}/${entry.name}`);
    out.push(`${entry.name} ${(info.mode ?? 0).toString(8)}`);
    if (entry.isDirectory) {
      out.push(...(await snapshot(`${dir}/${entry.name}`)).map((n) => `${entry.name}/${n}`));
    }
  }
  return out.sort();
}

/**
 * The perl helper among tern's children (a process this test's tern started), looked for until it is there
 * (bounded): its start is deferred to the event loop's next turn, and a child seen between its fork and its
 * exec is still named like tern.
 */
async function helperPid(ternPid: number): Promise<number | undefined> {
  for (let tries = 0; tries < 100; tries++) {
    const pid = await perlChild(ternPid);
    if (pid !== undefined) return pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

async function perlChild(ternPid: number): Promise<number | undefined> {
  for await (const task of Deno.readDir(`/proc/${ternPid}/task`)) {
    const children = await Deno.readTextFile(`/proc/${ternPid}/task/${task.name}/children`).catch(() => "");
    for (const pid of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
      const comm = await Deno.readTextFile(`/proc/${pid}/comm`).catch(() => "");
      if (comm.trim() === "perl") return pid;
    }
  }
  return undefined;
}

async function race(hidePerl: boolean): Promise<void> {
  await using project = await tempProject();
  await Deno.mkdir(`${project.root}/d`);
  await Deno.symlink(project.outside, `${project.root}/d.link`);
  await Deno.chmod(`${project.outside}/secret.txt`, 0o640);
  const before = await snapshot(project.outside);
  await using model = startFakeModel(script);
  const tern = [Deno.execPath(), ...await ternRunArgs(), "acp", "--approve", "all", "--sandbox", "off"];
  const argv = hidePerl ? withPerlHidden(tern) : tern;
  const child = spawnIn(argv, project.root, { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "m" });
  const stderr = new Response(child.stderr).text();
  const racer = new Deno.Command("python3", {
    args: ["-c", RACER, project.root],
    stdin: "piped",
    stdout: "piped",
  })
    .spawn();
  const lines = racer.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assertStringIncludes((await lines.read()).value ?? "", "racing");
  let killed = false;
  let asked = 0;
  // Bounded: a run that stops answering fails the test instead of hanging the suite.
  const deadline = setTimeout(() => child.kill(), 120_000);
  try {
    // Every question is answered (rejected), so nothing waits on the editor.
    const editor = acp.client({ name: "race" })
      .onNotification(acp.methods.client.session.update, () => {})
      .onRequest(acp.methods.client.session.requestPermission, () => {
        asked++;
        return { outcome: { outcome: "selected", optionId: "reject_once" } };
      });
    await editor.connectWith(
      acp.ndJsonStream(child.stdin, child.stdout),
      async (agent) => {
        await agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: {},
        });
        const { sessionId } = await agent.request(acp.methods.agent.session.new, {
          cwd: project.root,
          mcpServers: [],
        });
        // The helper is killed outright before the writes (the wall restarts it once, and says so).
        const pid = hidePerl ? undefined : await helperPid(child.pid);
        if (pid !== undefined) {
          Deno.kill(pid, "SIGKILL");
          killed = true;
        }
        // Prompt after prompt until the model has made every write (bounded: a prompt always makes some).
        for (let prompt = 0; prompt * TURNS_PER_PROMPT * PER_TURN < WRITES; prompt++) {
          await agent.request(acp.methods.agent.session.prompt, {
            sessionId,
            prompt: [{ type: "text", text: "go" }],
          });
        }
      },
    );
  } catch (error) {
    if (Deno.env.get("RACE_DEBUG")) console.log(await stderr, model.requests.length, killed);
    throw error;
  } finally {
    await racer.stdin.close();
    await lines.cancel().catch(() => {});
    await racer.status;
    clearTimeout(deadline);
    try {
      child.kill();
    } catch {
      // already gone
    }
    await child.status;
  }
  const log = await stderr;
  const made = Math.max(...model.requests.map(writesMade));
  console.log(
    `writes: ${made}; questions asked: ${asked}; requests: ${model.requests.length}; helper killed: ${killed}`,
  );
  if (Deno.env.get("RACE_DEBUG")) console.log(log);
  assertEquals(await snapshot(project.outside), before, "nothing outside was created or changed mode");
  assert(made >= WRITES, `${made} writes made, not ${WRITES}`);
  const last = model.requests.at(-1) as { messages: { role: string; content: string }[] };
  const results = last.messages.filter((message) => message.role === "tool").map((message) =>
    message.content
  );
  if (hidePerl) {
    assertStringIncludes(log, "file writes are refused: tern's file helper (perl) cannot run");
    // Refused by the wall, or before it by the path guard (the directory was a link to outside just then).
    assert(results.some((text) => text.includes("file writes are refused")), "the refusal reached the model");
    const done = results.filter((text) => !text.startsWith('<tool_result status="error">'));
    assertEquals(done, [], "every write was refused");
    assert(results.every((text) => !/\b(Created|Overwrote) d\//.test(text)), "no write reported done");
  } else {
    assert(killed, "the helper was found and killed");
    assertStringIncludes(log, "tern's file helper stopped; it was restarted");
  }
}

testNeeding(
  ["python3"],
  "tern acp: raced writes after the helper was SIGKILLed: nothing outside, the restart said",
  () => race(false),
);

const canHide = canHidePerl();
Deno.test({
  name: "tern acp: raced writes with perl hidden: every write refused, said, nothing outside",
  ignore: !canHide,
  fn: () => race(true),
});
