/** `tern -p`: the task from the arguments (or stdin), signals that cancel it, and the headless printer. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { Config } from "../../config/config.ts";
import { sandboxLine } from "../render/sandbox_words.ts";
import type { SandboxStatus } from "../../tools/shell/sandbox.ts";
import { type HeadlessOptions, runHeadless } from "./run.ts";
import { headlessTask } from "./input.ts";
import { streamSink } from "../render/renderer.ts";

/** Runs the one headless task of `config.prompt` on `session`; resolves with the exit code. */
export async function runHeadlessCli(
  session: AgentSession,
  { config, sandbox }: { config: Config; sandbox: SandboxStatus },
): Promise<number> {
  // Headless has no banner: a sandbox that cannot start is still said, in one line.
  if (!sandbox.active && config.sandbox !== "off") console.error(`tern: ${sandboxLine(sandbox)}`);
  const controller = new AbortController();
  // SIGINT/SIGTERM cancel the task; the loop still ends it cleanly (exit 130, json result printed).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => controller.abort());
  }
  const { task, note } = await headlessTask(config.prompt!); // `-p -`, or piped input attached
  if (note) console.error(`tern: ${note}`);
  return await runHeadless(session, {
    task,
    output: config.output,
    stdout: streamSink(Deno.stdout),
    stderr: streamSink(Deno.stderr),
    signal: controller.signal,
    debug: Boolean(Deno.env.get("TERN_DEBUG")),
    ask: await terminalAsk(),
  });
}

/**
 * On a real terminal (stdin and stderr), calls that need a yes are asked there, as in the REPL but drawn on
 * stderr: stdout carries only the answer. Without one, undefined: the policy refuses them.
 */
async function terminalAsk(): Promise<HeadlessOptions["ask"]> {
  if (!Deno.stdin.isTerminal() || !Deno.stderr.isTerminal()) return undefined;
  const { terminalAsker, terminalPromptsOn } = await import("../prompts/approval.ts");
  const encoder = new TextEncoder();
  const write = (text: string) => {
    const bytes = encoder.encode(text);
    for (let at = 0; at < bytes.length;) at += Deno.stderr.writeSync(bytes.subarray(at));
  };
  return (screen) =>
    terminalAsker({
      beforeAsk: screen.pause,
      onInterrupt: screen.cancel,
      show: screen.show,
      useColor: !Deno.env.get("NO_COLOR"),
      prompts: terminalPromptsOn(write),
      offerRules: true,
    });
}
