/**
 * Hooks: commands the user (or a trusted project) configured to run on the session's events, each getting
 * the event as JSON on stdin, with Claude Code's fields. Exit 0 goes on (PostToolUse's stdout goes to the
 * model, UserPromptSubmit's and SessionStart's become context; stdout JSON may say `"decision": "allow"` or
 * `"block"`, or `hookSpecificOutput.permissionDecision` allow, deny or ask), exit 2 blocks with stderr as the
 * reason (the human reads it too; whatever else it prints: its output is capped as it comes), any other exit
 * is a warning for the human with its stderr, and a hook past its time limit is killed and said. A PreToolUse
 * hook that gives no verdict (it cannot run, times out, floods) blocks its call: it fails closed. Matchers
 * take tern's tool names and Claude Code's (Bash, Edit, ...); a hook from `.claude/` reads the call as Claude
 * Code names it. The user's own hooks run with the user's permissions; the project's run in the sandbox.
 */
import { describeHook, type HookConfig, type HookEvent, matcherPattern } from "../../config/hook_settings.ts";
import { claudeToolNames } from "../../tools/claude_tools.ts";
import { claudeFields, eventJson, jsonDecision } from "./hook_io.ts";
import { type HookCommandResult, runHookCommand } from "../../tools/shell/hook_command.ts";
import { truncateMiddle } from "../../tools/_truncate.ts";

/** Times a Stop hook may send the model back to work in one task. */
export const MAX_STOP_CONTINUES = 3;

/** Characters of a hook's words the model gets at most, per hook. */
const MAX_HOOK_TEXT_CHARS = 4000;

/** What a hook run needs from its caller: the cancel signal, and where warnings for the human go. */
export interface HookContext {
  signal: AbortSignal;
  warn(message: string): void;
}

/** What a session's hooks are built with. */
export interface HooksOptions {
  root: string;
  /** The session's id now (in every event's JSON). */
  sessionId(): string | undefined;
  /** The session file, as `transcript_path` (tern's own JSONL lines, not Claude Code's). */
  transcriptPath?(): string | undefined;
  /** The approval mode now, as `permission_mode` in Claude Code's words. */
  mode?(): string;
}

/** The verdict of PreToolUse and UserPromptSubmit hooks: a block with its reason, an allow, an ask, context. */
export interface HookVerdict {
  block?: string;
  allow?: boolean;
  /** PreToolUse's `permissionDecision: "ask"`: the human is asked (with this reason) whatever the mode. */
  ask?: string;
  context?: string;
}

/** Claude Code's names for tern's approval modes (`permission_mode`). */
const PERMISSION_MODES: Readonly<Record<string, string>> = {
  ask: "default",
  edits: "acceptEdits",
  all: "bypassPermissions",
  plan: "plan",
};

/** One hook's outcome as the events read it. */
interface Outcome {
  hook: HookConfig;
  /** Exit 0: its stdout. */
  said?: string;
  /** Exit 2, or a JSON block: the reason. */
  block?: string;
  allow?: boolean;
  ask?: string;
}

/** The hooks of one session. */
export class Hooks {
  readonly #hooks: readonly HookConfig[];
  readonly #options: HooksOptions;
  readonly #events: ReadonlySet<HookConfig["event"]>;

  constructor(hooks: readonly HookConfig[], options: HooksOptions, events?: readonly HookConfig["event"][]) {
    this.#hooks = hooks;
    this.#options = options;
    this.#events = new Set(events ?? hooks.map((hook) => hook.event));
  }

  /** Every hook, in the order they run. */
  list(): readonly HookConfig[] {
    return this.#hooks;
  }

  /** The same hooks for a sub-agent: only the tool events (its prompt and its end are the task call's). */
  forChild(): Hooks {
    return new Hooks(this.#hooks, this.#options, ["PreToolUse", "PostToolUse"]);
  }

  /** Before a tool call (approval included): a block (the model reads why), an allow, or nothing. */
  async preToolUse(name: string, input: unknown, ctx: HookContext): Promise<HookVerdict> {
    const outcomes = await this.#run("PreToolUse", name, { tool_name: name, tool_input: input }, ctx);
    const blocked = outcomes.find((outcome) => outcome.block !== undefined);
    if (blocked) return { block: blockText(blocked) };
    // As in Claude Code, an ask outweighs an allow.
    const asked = outcomes.find((outcome) => outcome.ask !== undefined);
    if (asked) return { ask: asked.ask };
    return outcomes.some((outcome) => outcome.allow) ? { allow: true } : {};
  }

  /** After a successful tool call: what the hooks said, for the model (undefined: nothing). */
  async postToolUse(
    name: string,
    input: unknown,
    output: string,
    ctx: HookContext,
  ): Promise<string | undefined> {
    const event = { tool_name: name, tool_input: input, tool_response: output };
    const outcomes = await this.#run("PostToolUse", name, event, ctx);
    const lines = outcomes.flatMap((outcome) => {
      const text = (outcome.block ?? outcome.said ?? "").trim();
      return text === "" ? [] : [`[PostToolUse hook (${outcome.hook.file}): ${cut(text)}]`];
    });
    return lines.length === 0 ? undefined : lines.join("\n");
  }

  /** Before a prompt is sent: a block (the prompt is dropped), or context added after it. */
  async userPromptSubmit(prompt: string, ctx: HookContext): Promise<HookVerdict> {
    const outcomes = await this.#run("UserPromptSubmit", undefined, { prompt }, ctx);
    const blocked = outcomes.find((outcome) => outcome.block !== undefined);
    if (blocked) return { block: blockText(blocked) };
    return { context: contextText(outcomes, "UserPromptSubmit") };
  }

  /**
   * When the model has answered: a reason to send it back to work, or undefined to stop. `continued` is how
   * often Stop hooks did so in this task; from MAX_STOP_CONTINUES on the task ends (and the human is told).
   */
  async stop(answer: string, continued: number, ctx: HookContext): Promise<string | undefined> {
    const event = { stop_hook_active: continued > 0, last_assistant_message: answer };
    const outcomes = await this.#run("Stop", undefined, event, ctx);
    const blocked = outcomes.find((outcome) => outcome.block !== undefined);
    if (!blocked) return undefined;
    const reason = blocked.block!.trim();
    if (continued >= MAX_STOP_CONTINUES) {
      ctx.warn(
        `a Stop hook asked for more work ${MAX_STOP_CONTINUES + 1} times in this task; tern stops here ` +
          `(its last words: ${truncateMiddle(reason, 300)})`,
      );
      return undefined;
    }
    // The human reads what the hook said too: a broken hook script shows its error, not only its effect.
    ctx.warn(
      `the Stop hook ${blocked.hook.command} (${blocked.hook.file}) said: ${truncateMiddle(reason, 600)}`,
    );
    return `A Stop hook (${blocked.hook.file}) sent you back to work: ${cut(reason)}`;
  }

  /** When a conversation starts (`startup`, `resume`, `clear`): context for its first prompt, if any. */
  async sessionStart(source: string, ctx: HookContext): Promise<string | undefined> {
    return contextText(await this.#run("SessionStart", source, { source }, ctx), "SessionStart");
  }

  /**
   * The status line's command (a `statusLine` setting), given Claude Code's status JSON: its first line of
   * output, or undefined when there is none or it failed (said once as a warning).
   */
  async statusLine(status: Record<string, unknown>, ctx: HookContext): Promise<string | undefined> {
    const outcomes = await this.#run("StatusLine", undefined, { hook_event_name: "Status", ...status }, ctx);
    const line = outcomes.at(-1)?.said?.split("\n").find((text) => text.trim() !== "");
    return line?.trimEnd();
  }

  /**
   * tern needs the human (`permission_prompt`: an approval waits; `idle_prompt`: a long turn ended). What
   * the hooks say is not read: they only pass the nudge on (a desktop notification, a chat message).
   */
  async notification(type: string, message: string, ctx: HookContext): Promise<void> {
    await this.#run("Notification", type, { notification_type: type, message, title: "tern" }, ctx);
  }

  /** Runs the hooks of `event` whose matcher takes `target` (by tern's name or Claude Code's), in order. */
  async #run(
    event: HookConfig["event"],
    target: string | undefined,
    fields: Record<string, unknown>,
    ctx: HookContext,
  ): Promise<Outcome[]> {
    if (!this.#events.has(event)) return [];
    const names = target === undefined ? [] : [target, ...claudeToolNames(target)];
    const found = this.#hooks.filter((hook) =>
      hook.event === event &&
      (target === undefined || names.some((name) => matcherPattern(hook.matcher, hook.dialect)?.test(name)))
    );
    // One status line: the last one configured (the project's over the user's, as in Claude Code).
    const matching = event === "StatusLine" ? found.slice(-1) : found;
    if (matching.length === 0) return [];
    const { root } = this.#options;
    const common = {
      session_id: this.#options.sessionId() ?? null,
      transcript_path: this.#options.transcriptPath?.() ?? null,
      cwd: root,
      permission_mode: PERMISSION_MODES[this.#options.mode?.() ?? "ask"] ?? "default",
      hook_event_name: event,
    };
    const ternInput = eventJson({ ...common, ...fields });
    // A hook written for Claude Code reads the call as Claude Code names it (Bash, file_path).
    const claudeInput = () => eventJson({ ...common, ...fields, ...claudeFields(fields, root) });
    const outcomes: Outcome[] = [];
    for (const hook of matching) {
      if (ctx.signal.aborted) break;
      const input = hook.dialect === "claude" ? claudeInput() : ternInput;
      const outcome = await runHook(hook, input, { root, ctx });
      if (outcome) outcomes.push(outcome);
      if (outcome?.block !== undefined && event !== "PostToolUse") break;
    }
    return outcomes;
  }
}

/** Runs one hook (the user's outside the sandbox, the project's inside it) and judges what it did. */
async function runHook(
  hook: HookConfig,
  input: string,
  options: { root: string; ctx: HookContext },
): Promise<Outcome | undefined> {
  const { root, ctx } = options;
  const sandboxed = hook.scope === "project";
  try {
    const { timeoutMs } = hook;
    const result = await runHookCommand(hook.command, {
      root,
      input,
      sandboxed,
      timeoutMs,
      signal: ctx.signal,
    });
    return judge(hook, result, ctx);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    ctx.warn(`hook ${describeHook(hook)} (${hook.file}) could not run: ${why}`);
    return failClosed(hook, `it could not run (${why})`);
  }
}

/**
 * A PreToolUse hook that gave no verdict (it could not run, or was stopped) blocks the call: it may have
 * been the one guard in front of it, and a hook made to hang or flood must not let the call through.
 */
function failClosed(hook: HookConfig, why: string): Outcome | undefined {
  if (hook.event !== "PreToolUse") return undefined;
  return { hook, block: `the hook gave no verdict: ${why}; the call is blocked until it does` };
}

/** What one hook's run means: said, blocked, allowed, or (a warning for the human) nothing. */
function judge(hook: HookConfig, result: HookCommandResult, ctx: HookContext): Outcome | undefined {
  const name = `hook ${describeHook(hook)} (${hook.file})`;
  const blocks = hook.event === "PreToolUse";
  if (result.stopped === "timeout") {
    const then = blocks ? "the call it guards is blocked" : "its result ignored";
    ctx.warn(`${name} took longer than ${hook.timeoutMs / 1000} s: killed, and ${then}`);
    return failClosed(hook, `it took longer than ${hook.timeoutMs / 1000} s`);
  }
  if (result.stopped === "output_cap") {
    ctx.warn(`${name} printed too much: killed, and ${blocks ? "the call it guards is blocked" : "ignored"}`);
    return failClosed(hook, "it printed too much");
  }
  if (result.stopped !== null) return failClosed(hook, "it was cancelled with the turn");
  if (result.code === 2 && hook.event !== "StatusLine") {
    return { hook, block: result.stderr.trim() || "(the hook gave no reason)" };
  }
  if (result.code !== 0) {
    // Its own words, as many lines as fit: a broken script path or a missing interpreter says so here.
    const said = truncateMiddle(result.stderr.trim().split("\n").slice(0, 8).join(" | "), 600);
    ctx.warn(`${name} failed with exit code ${result.code}${said ? `: ${said}` : ""}`);
    return undefined;
  }
  if (hook.event === "StatusLine") return { hook, said: result.stdout };
  const decision = jsonDecision(result.stdout);
  // "Stop all work": a Stop hook lets the task end; any other event's call or prompt does not go ahead.
  if (decision?.halt !== undefined) {
    return hook.event === "Stop" ? { hook } : { hook, block: decision.halt || "(the hook stopped the work)" };
  }
  if (decision?.block !== undefined) return { hook, block: decision.block || "(the hook gave no reason)" };
  if (decision?.ask !== undefined) return { hook, ask: decision.ask };
  return { hook, said: decision?.context ?? result.stdout, allow: decision?.allow };
}

function blockText(outcome: Outcome): string {
  return `blocked by a ${outcome.hook.event} hook (${outcome.hook.file}): ${cut(outcome.block!)}`;
}

function contextText(outcomes: Outcome[], event: HookEvent): string | undefined {
  const said = outcomes.map((outcome) => (outcome.said ?? "").trim()).filter((text) => text !== "");
  return said.length === 0 ? undefined : `[${event} hook context]\n${said.map(cut).join("\n")}`;
}

function cut(text: string): string {
  return truncateMiddle(text, MAX_HOOK_TEXT_CHARS);
}
