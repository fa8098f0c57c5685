/**
 * Runs the fake model for manual trials (e.g. under tmux):
 * `deno run -A tests/support/fake_model_cli.ts script.json [--port N] [--loop]`.
 * Prints the base URL on stdout (for chat and Responses; the Anthropic wire takes it without `/v1`), logs each
 * request on stderr, and stops on Ctrl-C.
 */
import { parseArgs } from "node:util";
import { type ScriptedTurn, startFakeModel } from "./fake_model_server.ts";

const USAGE = "usage: fake_model_cli.ts SCRIPT.json [--port N] [--loop]";

/** Reads the script file: a JSON array of ScriptedTurn objects. */
export async function loadScript(path: string): Promise<ScriptedTurn[]> {
  const script = JSON.parse(await Deno.readTextFile(path));
  if (!Array.isArray(script) || script.some((turn) => typeof turn !== "object" || turn === null)) {
    throw new Error(`${path}: expected a JSON array of turns ({"text": ...}, {"toolCalls": [...]}, ...)`);
  }
  return script;
}

/** A script serving the turns in order, then the last turn again for every further request. */
export function loopingScript(script: ScriptedTurn[]): (body: unknown, index: number) => ScriptedTurn {
  if (script.length === 0) throw new Error("--loop needs at least one turn in the script");
  return (_body, index) => script[Math.min(index, script.length - 1)];
}

async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { port: { type: "string" }, loop: { type: "boolean", default: false } },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
    return 2;
  }
  const port = Number(parsed.values.port ?? 0);
  if (parsed.positionals.length !== 1 || !Number.isInteger(port) || port < 0) {
    console.error(USAGE);
    return 2;
  }
  const script = await loadScript(parsed.positionals[0]);
  const model = startFakeModel(parsed.values.loop ? loopingScript(script) : script, {
    port,
    onRequest: (summary) => console.error(`fake model: request ${summary}`),
  });
  console.log(model.url);
  console.error(`fake model: for --api anthropic use --base-url ${model.root}`);
  await new Promise<void>((resolve) => {
    Deno.addSignalListener("SIGINT", resolve);
    Deno.addSignalListener("SIGTERM", resolve);
  });
  await model.close();
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    console.error(`fake model: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
}
