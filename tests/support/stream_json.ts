/** The stream-json contract's JSON Schema (docs/), compiled with ajv, and a line-by-line conversation with tern. */
import { Ajv } from "ajv";
import { TextLineStream } from "./text_lines.ts";
import { spawnTern } from "./cli.ts";

const SCHEMA = new URL("../../docs/stream-json.schema.json", import.meta.url);

/** Checks one event against docs/stream-json.schema.json; returns ajv's complaints ([] when valid). */
export async function streamJsonValidator(): Promise<(event: unknown) => string[]> {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const validate = ajv.compile(JSON.parse(await Deno.readTextFile(SCHEMA)));
  return (event) => {
    if (validate(event)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
}

/** A tern process whose stdin is written line by line and whose stdout is read as JSON lines. */
export interface LiveTern extends AsyncDisposable {
  send(line: unknown): Promise<void>;
  /** Closes stdin (EOF). */
  end(): Promise<void>;
  /** Reads events until one satisfies `until`; returns them all, that one last. */
  readUntil(until: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>[]>;
  /** Waits for the exit; the rest of stdout (as events) and stderr. */
  finish(): Promise<{ code: number; events: Record<string, unknown>[]; stderr: string }>;
}

/** Starts `tern ARGS` in `cwd` as `spawnTern` does, stdin left open for the lines the test sends. */
export async function liveTern(cwd: string, args: string[], env: Record<string, string>): Promise<LiveTern> {
  const child = await spawnTern({ cwd, args, env, openStdin: true });
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream())
    .getReader();
  const stderr = new Response(child.stderr).text();
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    await writer.close().catch(() => {});
  };
  return {
    send: (line) => writer.write(new TextEncoder().encode(JSON.stringify(line) + "\n")),
    end,
    async readUntil(until) {
      const events: Record<string, unknown>[] = [];
      while (true) {
        const { value, done } = await lines.read();
        if (done) throw new Error(`stdout ended first; events: ${JSON.stringify(events)}`);
        const event = JSON.parse(value);
        events.push(event);
        if (until(event)) return events;
      }
    },
    async finish() {
      await end();
      const events: Record<string, unknown>[] = [];
      for (let next = await lines.read(); !next.done; next = await lines.read()) {
        events.push(JSON.parse(next.value));
      }
      const { code } = await child.status;
      return { code, events, stderr: await stderr };
    },
    async [Symbol.asyncDispose]() {
      await end();
      try {
        child.kill();
      } catch {
        // already exited
      }
      await child.status;
      await lines.cancel().catch(() => {});
      await stderr;
    },
  };
}
