/**
 * Hooks: commands the user (or a trusted project) configured to run on the session's events, each getting
 * the event as JSON on stdin. Exit 0 goes on (PostToolUse's stdout goes to the model, UserPromptSubmit's and
 * SessionStart's become context; stdout JSON may say `"decision": "allow"` or `"block"`), exit 2 blocks with
 * stderr as the reason, any other exit is a warning for the human, and a hook past its time limit is killed
 * and said. The user's own hooks run with the user's permissions; the project's run in the sandbox.
 */
import { describeHook, type HookConfig, type HookEvent, matcherPattern } from "../config/hook_settings.ts";
import { type HookCommandResult, runHookCommand } from "../tools/shell/hook_command.ts";
import { truncateMiddle } from "../tools/_truncate.ts";

/** Times a Stop hook may send the model back to work in one task. */
export const MAX_STOP_CONTINUES = 3;

/** Characters of a hook's words the model gets at most, per hook. */
const MAX_HOOK_TEXT_CHARS = 4000;

/** Bytes of event JSON at most (it travels in an environment variable, capped at 128 KiB by the kernel). */
const MAX_EVENT_BYTES = 100_000;

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
}

/** The verdict of PreToolUse and UserPromptSubmit hooks: a block with its reason, an allow, context. */
export interface HookVerdict {
  block?: string;
  allow?: boolean;
  context?: string;
}

/** One hook's outcome as the events read it. */
interface Outcome {
  hook: HookConfig;
  /** Exit 0: its stdout. */
  said?: string;
  /** Exit 2, or a JSON block: the reason. */
  block?: string;
  allow?: boolean;
}

/** The hooks of one session. */
export class Hooks {
  readonly #hooks: readonly HookConfig[];
  readonly #options: HooksOptions;
  readonly #events: ReadonlySet<HookEvent>;

  constructor(hooks: readonly HookConfig[], options: HooksOptions, events?: readonly HookEvent[]) {
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
    if (continued >= MAX_STOP_CONTINUES) {
      ctx.warn(
        `a Stop hook asked for more work ${MAX_STOP_CONTINUES + 1} times in this task; tern stops here`,
      );
      return undefined;
    }
    return `A Stop hook (${blocked.hook.file}) sent you back to work: ${cut(blocked.block!.trim())}`;
  }

  /** When a conversation starts (`startup`, `resume`, `clear`): context for its first prompt, if any. */
  async sessionStart(source: string, ctx: HookContext): Promise<string | undefined> {
    return contextText(await this.#run("SessionStart", source, { source }, ctx), "SessionStart");
  }

  /**
   * tern needs the human (`permission_prompt`: an approval waits; `idle_prompt`: a long turn ended). What
   * the hooks say is not read: they only pass the nudge on (a desktop notification, a chat message).
   */
  async notification(type: string, message: string, ctx: HookContext): Promise<void> {
    await this.#run("Notification", type, { notification_type: type, message, title: "tern" }, ctx);
  }

  /** Runs the hooks of `event` whose matcher takes `target`, one after another. */
  async #run(
    event: HookEvent,
    target: string | undefined,
    fields: Record<string, unknown>,
    ctx: HookContext,
  ): Promise<Outcome[]> {
    if (!this.#events.has(event)) return [];
    const matching = this.#hooks.filter((hook) =>
      hook.event === event && (target === undefined || matcherPattern(hook.matcher)?.test(target))
    );
    if (matching.length === 0) return [];
    const { root } = this.#options;
    const input = eventJson({
      session_id: this.#options.sessionId() ?? null,
      cwd: root,
      hook_event_name: event,
      ...fields,
    });
    const outcomes: Outcome[] = [];
    for (const hook of matching) {
      if (ctx.signal.aborted) break;
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
    return undefined;
  }
}

/** What one hook's run means: said, blocked, allowed, or (a warning for the human) nothing. */
function judge(hook: HookConfig, result: HookCommandResult, ctx: HookContext): Outcome | undefined {
  const name = `hook ${describeHook(hook)} (${hook.file})`;
  if (result.stopped === "timeout") {
    ctx.warn(`${name} took longer than ${hook.timeoutMs / 1000} s: killed, and its result ignored`);
    return undefined;
  }
  if (result.stopped !== null) return undefined; // cancelled with the turn, or flooding: nothing to read
  if (result.code === 2) return { hook, block: result.stderr.trim() || "(the hook gave no reason)" };
  if (result.code !== 0) {
    const said = result.stderr.trim().split("\n")[0] ?? "";
    ctx.warn(`${name} failed with exit code ${result.code}${said ? `: ${truncateMiddle(said, 300)}` : ""}`);
    return undefined;
  }
  const decision = jsonDecision(result.stdout);
  if (decision?.block !== undefined) return { hook, block: decision.block || "(the hook gave no reason)" };
  return { hook, said: decision?.context ?? result.stdout, allow: decision?.allow };
}

/**
 * Claude Code's JSON output, as far as tern uses it: `decision` ("allow"/"approve" or "block"/"deny") with
 * `reason`, or `hookSpecificOutput.permissionDecision` with its reason, and `additionalContext`.
 */
function jsonDecision(stdout: string): { block?: string; allow?: boolean; context?: string } | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Other JSON (a hook that prints data) is output like any text.
  if (typeof json !== "object" || json === null || !("decision" in json || "hookSpecificOutput" in json)) {
    return undefined;
  }
  const specific = (json.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const decision = specific.permissionDecision ?? json.decision;
  const reason = String(specific.permissionDecisionReason ?? json.reason ?? "");
  const context = typeof specific.additionalContext === "string" ? specific.additionalContext : "";
  if (decision === "block" || decision === "deny") return { block: reason };
  return { allow: decision === "allow" || decision === "approve", context };
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

/** The event as JSON within MAX_EVENT_BYTES: long strings inside are cut (a whole file's content, say). */
function eventJson(event: Record<string, unknown>): string {
  for (const max of [Infinity, 16_000, 2_000, 200]) {
    const json = JSON.stringify(
      event,
      (_key, value) => typeof value === "string" && value.length > max ? truncateMiddle(value, max) : value,
    );
    if (new TextEncoder().encode(json).length <= MAX_EVENT_BYTES) return json;
  }
  return JSON.stringify({ hook_event_name: event.hook_event_name, cwd: event.cwd, truncated: true });
}
