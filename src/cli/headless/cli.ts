/** `tern -p`: the task from the arguments (or stdin), signals that cancel it, and the headless printer. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { Config } from "../../config/config.ts";
import type { CliArgs } from "../args.ts";
import { sandboxLine } from "../render/sandbox_words.ts";
import type { SandboxStatus } from "../../tools/shell/sandbox.ts";
import { runHeadless } from "./run.ts";
import { headlessTask } from "./input.ts";
import { StreamInput } from "./stream_input.ts";
import { errorEvent } from "./stream_json.ts";
import { streamSink } from "../render/renderer.ts";

/** Runs the headless task(s) of `config.prompt` and `--input-format` on `session`; resolves with the exit code. */
export async function runHeadlessCli(
  session: AgentSession,
  { config, sandbox, args }: { config: Config; sandbox: SandboxStatus; args?: CliArgs },
): Promise<number> {
  // Headless has no banner: a sandbox that cannot start is still said, in one line.
  if (!sandbox.active && config.sandbox !== "off") console.error(`tern: ${sandboxLine(sandbox)}`);
  const controller = new AbortController();
  // SIGINT/SIGTERM cancel the task; the loop still ends it cleanly (exit 130, json result printed).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => controller.abort());
  }
  const stdout = streamSink(Deno.stdout);
  let input: StreamInput | undefined;
  let task = config.prompt;
  if (args?.inputFormat === "stream-json") {
    input = new StreamInput(Deno.stdin.readable, (problem) => {
      console.error(`tern: ${problem}`);
      if (config.output === "stream-json") stdout.write(JSON.stringify(errorEvent(problem)) + "\n");
    });
  } else {
    const { task: text, note } = await headlessTask(config.prompt!); // `-p -`, or piped input attached
    if (note) console.error(`tern: ${note}`);
    task = text;
  }
  return await runHeadless(session, {
    task,
    input,
    approvalTimeoutMs: args?.approvalTimeoutMs,
    output: config.output,
    stdout,
    stderr: streamSink(Deno.stderr),
    signal: controller.signal,
    debug: Boolean(Deno.env.get("TERN_DEBUG")),
  });
}
