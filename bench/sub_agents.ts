/**
 * Sub-agents keep the main context small (issue 20): a child reads five files and answers in a few lines;
 * the main session's next request grows by that answer only (target: less than 2 KB). For comparison, the
 * same five reads done by the main session itself. Request bytes are deterministic, so one run is the figure.
 * `deno run -A bench/sub_agents.ts` runs it alone.
 */
import type { ScriptedTurn } from "../tests/support/fake_model_server.ts";
import { count, ratio } from "./_measure.ts";
import { requestSizes } from "./request_bytes.ts";

const FILES = ["api", "cache", "config", "parser", "router"].map((name) => `src/${name}.ts`);
const TARGET = 2048;

/** A module of about 4 KB: a few exported functions with comments. */
function moduleText(name: string): string {
  return Array.from(
    { length: 30 },
    (_, i) =>
      `/** ${name}: step ${i} of the pipeline, documented at some length. */\n` +
      `export function ${name}Step${i}(input: string): string {\n  return input.trim() + "${i}";\n}\n`,
  ).join("\n");
}

const reads = {
  toolCalls: FILES.map((path) => ({ name: "read_file", arguments: JSON.stringify({ path }) })),
};
const answer: ScriptedTurn = {
  text: "Each of the five modules (api, cache, config, parser, router) exports 30 functions named " +
    "<module>Step0 … <module>Step29; each trims its input and appends its index. No module imports another.",
};
const done: ScriptedTurn = { text: "Summarised." };
const task: ScriptedTurn = {
  toolCalls: [{
    name: "task",
    arguments: JSON.stringify({
      description: "survey five modules",
      prompt: `Read ${FILES.join(", ")} and say in a few lines what each exports.`,
    }),
  }],
};

/** The figures: bytes the main session's second request adds, through a child and by reading itself. */
export async function subAgentRows(): Promise<{ fileBytes: number; viaChild: number; direct: number }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-sub-agents-" }));
  try {
    await Deno.mkdir(`${root}/src`);
    let fileBytes = 0;
    for (const path of FILES) {
      const text = moduleText(path.slice(4, -3));
      fileBytes += new TextEncoder().encode(text).length;
      await Deno.writeTextFile(`${root}/${path}`, text);
    }
    // One child, so the requests arrive in order: main, child, child, main.
    const child = await requestSizes(root, [task, reads, answer, done]);
    if (!child.bodies[1].includes("You are a sub-agent")) throw new Error("request 2 was not the child's");
    const direct = await requestSizes(root, [reads, done]);
    return {
      fileBytes,
      viaChild: child.sizes[3] - child.sizes[0],
      direct: direct.sizes[1] - direct.sizes[0],
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Prints the scenario's figures. */
export async function printSubAgentBench(): Promise<void> {
  const { fileBytes, viaChild, direct } = await subAgentRows();
  console.log(`sub-agents (a child reads five files, ${count(fileBytes)} bytes, and answers):`);
  console.log(
    `  the main session's next request grows by ${count(viaChild).padStart(6)} bytes  target < ${
      count(TARGET)
    } ` +
      `(ratio ${ratio(viaChild, TARGET)})`,
  );
  console.log(`  reading the five files itself instead:  ${count(direct).padStart(6)} bytes`);
}

if (import.meta.main) await printSubAgentBench();
