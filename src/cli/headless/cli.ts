/** `tern -p`: the task from the arguments (or stdin), signals that cancel it, and the headless printer. */
import type { AgentSession } from "../../agent/agent_session.ts";
import type { Project } from "../../agent/project/project.ts";
import type { FrontEnd } from "../../agent/project/front_end.ts";
import type { FirstSession } from "../../agent/log/session_choice.ts";
import type { CliArgs } from "../args.ts";
import { checkRequiredTools, firstSessionChoice } from "../project_choices.ts";
import { sandboxLine } from "../render/sandbox_words.ts";
import { type HeadlessOptions, runHeadless } from "./run.ts";
import { headlessTask } from "./input.ts";
import { StreamInput } from "./stream_input.ts";
import { errorEvent } from "./stream_json.ts";
import { streamSink } from "../render/sink.ts";
import { terminalSafe } from "../render/terminal_safe.ts";

/** `-p` and `--input-format`: the front end the core runs (agent/project/front_end.ts). */
export class HeadlessFrontEnd implements FrontEnd {
  readonly kind = "headless";
  readonly first?: FirstSession;
  readonly #args: CliArgs;

  constructor(args: CliArgs) {
    this.#args = args;
    // Nobody can be asked which session: `-r` without an id names the latest ones instead (the list's
    // module loaded only then).
    this.first = firstSessionChoice(
      args,
      async (sessions) => (await import("../commands/sessions.ts")).pickNone(sessions),
    );
  }

  run(project: Project, session: AgentSession): Promise<number> {
    checkRequiredTools(project, session);
    return runHeadlessCli(project, session, this.#args);
  }
}

/** Runs the headless task(s) of `-p` and `--input-format` on `session`; resolves with the exit code. */
async function runHeadlessCli(
  project: Project,
  session: AgentSession,
  args: CliArgs,
): Promise<number> {
  const { config } = project;
  // Headless has no banner: a sandbox that cannot start is still said, in one line, once the probe knows
  // (the task does not wait for it; every run prints it before it ends).
  const said = project.sandbox.then((status) => {
    if (!status.active && config.sandbox !== "off") console.error(`tern: ${sandboxLine(status)}`);
  });
  const controller = new AbortController();
  // SIGINT/SIGTERM cancel the task; the loop still ends it cleanly (exit 130, json result printed).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => controller.abort());
  }
  const stdout = streamSink(Deno.stdout);
  let input: StreamInput | undefined;
  let task = config.prompt;
  if (args.inputFormat === "stream-json") {
    input = new StreamInput(Deno.stdin.readable, (problem) => {
      console.error(`tern: ${problem}`);
      if (config.output === "stream-json") stdout.write(JSON.stringify(errorEvent(problem)) + "\n");
    });
  } else {
    const { task: text, note } = await headlessTask(config.prompt!); // `-p -`, or piped input attached
    if (note) console.error(`tern: ${note}`);
    task = text;
  }
  // The trusted servers' tools are in the first request: the run waits for them (TERN_MCP_STARTUP_MS).
  for (const line of await project.mcpReady()) console.error(`tern: ${terminalSafe(line)}`);
  try {
    return await runHeadless(session, {
      task,
      input,
      commands: async () => {
        const { commandTable, withHelp } = await import("../commands/project_table.ts");
        return withHelp(commandTable(project, session));
      },
      approvalTimeoutMs: args.approvalTimeoutMs,
      output: config.output,
      stdout,
      stderr: streamSink(Deno.stderr),
      signal: controller.signal,
      debug: Boolean(Deno.env.get("TERN_DEBUG")),
      // stdin carries the messages (and answers) with stream-json input; else a terminal may be asked.
      ask: input ? undefined : await terminalAsk(),
    });
  } finally {
    await said;
  }
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
