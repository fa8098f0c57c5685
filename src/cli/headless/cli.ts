/** `tern -p`: the task from the arguments (or stdin), signals that cancel it, and the headless printer. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { Config } from "../../config/config.ts";
import { sandboxLine } from "../render/sandbox_words.ts";
import type { SandboxStatus } from "../../tools/shell/sandbox.ts";
import { runHeadless } from "./run.ts";
import { headlessTask } from "./input.ts";
import { streamSink } from "../render/renderer.ts";

/** Runs the one headless task of `config.prompt` on `session`; resolves with the exit code. */
export async function runHeadlessCli(
  session: AgentSession,
  { config, sandbox }: { config: Config; sandbox: Promise<SandboxStatus> },
): Promise<number> {
  // Headless has no banner: a sandbox that cannot start is still said, in one line, once the probe knows
  // (the task does not wait for it; every run prints it before it ends).
  const said = sandbox.then((status) => {
    if (!status.active && config.sandbox !== "off") console.error(`tern: ${sandboxLine(status)}`);
  });
  const controller = new AbortController();
  // SIGINT/SIGTERM cancel the task; the loop still ends it cleanly (exit 130, json result printed).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => controller.abort());
  }
  const { task, note } = await headlessTask(config.prompt!); // `-p -`, or piped input attached
  if (note) console.error(`tern: ${note}`);
  try {
    return await runHeadless(session, {
      task,
      output: config.output,
      stdout: streamSink(Deno.stdout),
      stderr: streamSink(Deno.stderr),
      signal: controller.signal,
      debug: Boolean(Deno.env.get("TERN_DEBUG")),
    });
  } finally {
    await said;
  }
}
