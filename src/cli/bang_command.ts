/**
 * `!COMMAND` at the REPL's prompt: COMMAND runs in the project as execute_command runs the model's (the
 * sandbox, the timeout, the redaction), its output is printed, and both go into the conversation for the next
 * prompt. Esc or Ctrl-C stops it.
 */
import type { AgentSession } from "../agent/agent_session.ts";
import { listenForCancel } from "./input/keys.ts";
import type { Renderer } from "./render/renderer.ts";
import type { Sink } from "./render/sink.ts";

/** Runs the command of a `!` line and prints what it did. */
export async function runBangLine(
  session: AgentSession,
  command: string,
  out: { screen: Renderer; sink: Sink },
): Promise<void> {
  const { screen } = out;
  if (command === "") {
    screen.print(
      "!COMMAND runs COMMAND in the project, and puts it and its output into the conversation",
      "dim",
    );
    return;
  }
  const controller = new AbortController();
  const cancel = () => controller.abort();
  const keys = out.sink.isTerminal ? listenForCancel(cancel) : undefined;
  Deno.addSignalListener("SIGINT", cancel);
  try {
    const result = await session.userCommand(command, { signal: controller.signal });
    screen.print(result.content, result.error ? "red" : undefined);
    screen.print("(the command and its output are in the conversation for your next prompt)", "dim");
  } finally {
    keys?.stop();
    Deno.removeSignalListener("SIGINT", cancel);
  }
}
