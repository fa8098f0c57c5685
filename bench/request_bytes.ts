/**
 * Request-body bytes, the table of issue 10: tern -p against the fake model server, each request's JSON
 * body measured as sent. Scenarios: the first request of a one-line task; 20 tool turns of `echo N`, all
 * requests summed (also over the Anthropic and Responses wires, which the issue did not measure); the
 * largest request after reading a 5 MB file (whose full text stays reachable by paging). Bytes are deterministic (but for the temp root's name in the prompt), so one run is the figure.
 * `deno run -A bench/request_bytes.ts` runs it alone.
 */
import { type ScriptedTurn, startFakeModel } from "../tests/support/fake_model_server.ts";
import { installedRunArgs } from "./_entry.ts";
import { bigText } from "./_big_file.ts";
import { count, ratio } from "./_measure.ts";
import { prefixShare } from "./_prefix.ts";

/** One scenario's figure, its target and the best peer's figure (issue 10), in bytes; the other wires' rows
 * have neither (the issue measured chat completions). */
export interface ByteRow {
  scenario: string;
  bytes: number;
  target?: number;
  peer?: number;
  /** The figure issue 18 started from (for the 20 turns: the side-by-side comparison's, with this prompt). */
  before?: number;
  /** The share of requests after the first that kept the previous one's prefix (see _prefix.ts). */
  kept?: number;
}

/** The wires tern speaks, as `TERN_API` names them. */
type Api = "chat" | "anthropic" | "responses";

const encoder = new TextEncoder();
const BIG_PATH = "src/big_module.ts";

/** Bytes of each request body tern sent for `script`, in order (JSON.stringify is what the transport sends). */
export async function requestSizes(
  root: string,
  script: ScriptedTurn[],
  api: Api = "chat",
  prompt = "Say hello in one word.",
): Promise<{ sizes: number[]; bodies: string[]; kept: number }> {
  await using model = await startFakeModel(script);
  const output = await new Deno.Command(Deno.execPath(), {
    args: [...await installedRunArgs(), "-p", prompt, "--approve", "all"],
    cwd: root,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      // Anthropic's base URL is the root its /v1/messages hangs off.
      TERN_BASE_URL: api === "anthropic" ? model.root : model.url,
      TERN_API: api,
      TERN_API_KEY: "bench-key",
      TERN_MODEL: "fake",
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  // Exit 3 is a task stopped early (the runaway scenario): its report is part of the figures.
  if (!output.success && output.code !== 3) {
    throw new Error(`tern failed (exit ${output.code}):\n${new TextDecoder().decode(output.stderr)}`);
  }
  const bodies = model.requests.map((body) => JSON.stringify(body));
  return {
    sizes: bodies.map((body) => encoder.encode(body).length),
    bodies,
    kept: prefixShare(model.requests, api),
  };
}

/** The task of the 20-turn scenario, word for word as the side-by-side comparison's scripted server gives it. */
const LOOP_PROMPT = "Run echo 1 through echo 20, one command at a time.";

const answer: ScriptedTurn = { text: "Hello.", usage: { prompt_tokens: 100, completion_tokens: 2 } };

/**
 * A tool-call id as real servers issue them (OpenAI: `call_` and 24 random letters and digits; the scripted
 * server of the team's side-by-side comparison does the same), fixed per turn so the bytes are the same every run. The fake
 * server's own ids (`call_0_0`) are a third as long, and every later request repeats each id twice.
 */
function providerId(turn: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let seed = 2_654_435_761 * (turn + 1);
  let id = "call_";
  for (let i = 0; i < 24; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    id += alphabet[seed % alphabet.length];
  }
  return id;
}

/** Measures the three scenarios in a temp project of their own, removed again. */
export async function requestByteRows(): Promise<ByteRow[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bytes-" }));
  try {
    const first = await requestSizes(root, [answer]);
    const echoes: ScriptedTurn[] = Array.from({ length: 20 }, (_, i) => ({
      toolCalls: [{
        id: providerId(i),
        name: "execute_command",
        arguments: JSON.stringify({ command: `echo ${i + 1}` }),
      }],
    }));
    const twenty = await requestSizes(root, [...echoes, answer], "chat", LOOP_PROMPT);
    const sum = (sizes: number[]) => sizes.reduce((a, b) => a + b, 0);
    // The same call again and again: the runaway guard stops the task and asks for a report.
    const same: ScriptedTurn = {
      toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command: "echo same" }) }],
    };
    const stopped = await requestSizes(root, [...Array(5).fill(same), answer], "chat", LOOP_PROMPT);
    const overAnthropic = await requestSizes(root, [...echoes, answer], "anthropic", LOOP_PROMPT);
    const overResponses = await requestSizes(root, [...echoes, answer], "responses", LOOP_PROMPT);
    await Deno.mkdir(`${root}/src`);
    await Deno.writeTextFile(`${root}/${BIG_PATH}`, bigText().text);
    const read: ScriptedTurn = {
      toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: BIG_PATH }) }],
    };
    const big = await requestSizes(root, [read, answer]);
    // The rest of the file must stay reachable: the page ends with the offset to continue from.
    if (!/offset=\d+/.test(big.bodies.at(-1)!)) throw new Error("the 5 MB read gave no continuation hint");
    return [
      {
        scenario: "first request of a one-line task",
        bytes: first.sizes[0],
        target: 4_000,
        peer: 5_602,
        before: 4_396,
      },
      {
        scenario: "20 tool turns (echo N), all requests",
        bytes: sum(twenty.sizes),
        target: 125_000,
        peer: 171_765,
        before: 139_368,
        kept: twenty.kept,
      },
      {
        scenario: "  the same over Anthropic Messages",
        bytes: sum(overAnthropic.sizes),
        kept: overAnthropic.kept,
      },
      {
        scenario: "  the same over OpenAI Responses",
        bytes: sum(overResponses.sizes),
        kept: overResponses.kept,
      },
      {
        scenario: "stopped early (runaway), all requests",
        bytes: sum(stopped.sizes),
        kept: stopped.kept,
        // Its bytes grew: the report request carries the tools again, which a cached prefix makes cheap.
        before: 27_914,
      },
      {
        scenario: "largest request after a 5 MB read",
        bytes: Math.max(...big.sizes),
        target: 30_000,
        peer: 49_548,
        before: 34_041,
        kept: big.kept,
      },
    ];
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Prints the byte table: bytes, target and ratio, best peer and ratio. */
export async function printRequestBytes(): Promise<void> {
  const rows = await requestByteRows();
  console.log("request-body bytes (lower is cheaper):");
  for (const row of rows) {
    const target = row.target === undefined
      ? ""
      : `  target ≤ ${count(row.target)} (ratio ${ratio(row.bytes, row.target)})`;
    const peer = row.peer === undefined
      ? ""
      : `  best peer ${count(row.peer)} (ratio ${ratio(row.bytes, row.peer)})`;
    const before = row.before === undefined ? "" : `  before ${count(row.before)}`;
    const kept = row.kept === undefined ? "" : `  prefix kept ${(row.kept * 100).toFixed(0)}%`;
    const against = before + target + peer + kept;
    console.log(`  ${row.scenario.padEnd(38)} ${count(row.bytes).padStart(8)}${against}`);
  }
}

if (import.meta.main) await printRequestBytes();
