/**
 * The 20-turn echo scenario against the scripted server the team's side-by-side comparisons use
 * (../shared/bench/mockllm.mjs, run with node from where it lies), so the bench shows that its own figure
 * measures what the comparison measures. Absent (a clone without ../shared, or no node): no figure.
 */
import { fileURLToPath } from "node:url";
import { ternRunArgs } from "../tests/support/cli.ts";

const SHARED = fileURLToPath(new URL("../../shared/bench/", import.meta.url));

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Reads the server's first line, "listening http://127.0.0.1:PORT". */
async function listening(stdout: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stdout.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    const url = /listening (http:\/\/\S+)/.exec(text)?.[1];
    if (url) return url;
  }
  throw new Error(`mockllm did not start: ${text}`);
}

/** Total request-body bytes of tern -p on the `loop20` scenario, or undefined where the server is not here. */
export async function sharedLoop20Bytes(): Promise<number | undefined> {
  if (!await exists(`${SHARED}mockllm.mjs`)) return undefined;
  const scenario = JSON.parse(await Deno.readTextFile(`${SHARED}scenarios/loop20.json`));
  const dump = await Deno.makeTempDir({ prefix: "tern-bench-bodies-" });
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bench-loop20-" }));
  let server: Deno.ChildProcess;
  try {
    server = new Deno.Command("node", {
      args: [
        `${SHARED}mockllm.mjs`,
        "--port",
        "0",
        "--scenarios",
        `${SHARED}scenarios`,
        "--profiles",
        `${SHARED}profiles`,
        "--dump-bodies",
        dump,
        "--quiet",
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
  } catch {
    return undefined; // no node
  }
  try {
    const url = await listening(server.stdout);
    const output = await new Deno.Command(Deno.execPath(), {
      args: [...await ternRunArgs(), "-p", scenario.prompt, "--approve", "all"],
      cwd: root,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/root",
        TERN_BASE_URL: `${url}/s/loop20/tern/run/1/v1`,
        TERN_API_KEY: "bench-key",
        TERN_MODEL: "mock-model",
        NO_COLOR: "1",
      },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!output.success) throw new Error(`tern failed: ${new TextDecoder().decode(output.stderr)}`);
    let bytes = 0;
    for await (const entry of Deno.readDir(dump)) bytes += (await Deno.stat(`${dump}/${entry.name}`)).size;
    return bytes;
  } finally {
    server.kill();
    await server.status;
    await Deno.remove(dump, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
}
