/** The REPL's approval prompt: shows what a call will do (its tool's preview: a diff, the whole command), then asks. */
import { styleText } from "../render/style.ts";
import type { ApprovalAnswer, AskHuman, Assessment } from "../../agent/policy/approval.ts";
import type { ApprovalRequest } from "../../agent/policy/approval_request.ts";
import { suggestRules } from "../../agent/policy/permission_rules.ts";
import { chooseOne } from "./choice.ts";
import { diffSummary, formatDiffSummary, renderDiff } from "../render/diff_view.ts";
import { loadDiff } from "../../text_diff.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import { terminalReader } from "../input/terminal_reader.ts";

/** Why the policy asks (the `ask: true` half of an Assessment). */
export type ApprovalNeed = Extract<Assessment, { ask: true }>;

/** One answer offered at the prompt; a disabled one is shown greyed out with why, so numbers never shift. */
export interface ApprovalChoice {
  name: string;
  /** The answer; "rule:<rule>" is "yes, and always allow what <rule> covers" (saved for the project). */
  value: Exclude<ApprovalAnswer["kind"], "rule"> | `rule:${string}`;
  disabled?: string;
}

/**
 * The two questions the asker puts; injectable so the flow is testable without a terminal. Either rejects
 * when the user cancels (Esc, Ctrl-C, Ctrl-D): the turn stops.
 */
export interface ApprovalPrompts {
  choose(message: string, choices: ApprovalChoice[]): Promise<ApprovalChoice["value"]>;
  reason(message: string): Promise<string>;
}

/** What the terminal asker needs from the REPL. */
export interface TerminalAskerOptions {
  /** Called before anything is printed, e.g. to stop the spinner. */
  beforeAsk(): void;
  /** Ctrl-C at the prompt, or "abort this turn": cancel the running task. */
  onInterrupt(): void;
  /** Prints the preview above the question; default stdout. */
  show?: (text: string) => void;
  useColor?: boolean;
  prompts?: ApprovalPrompts;
  /** Offer "always allow" rules (saved in .tern/local/settings.json) besides "this session". */
  offerRules?: boolean;
}

/**
 * The terminal prompts: a numbered choice (digits, or arrows and Enter), then an optional one-line reason,
 * drawn with `write` (default stdout; a `-p` run draws them on stderr, since stdout carries its answer).
 */
export function terminalPromptsOn(write?: (text: string) => void): ApprovalPrompts {
  return {
    choose: async (message, choices) => {
      const useColor = (write ? Deno.stderr : Deno.stdout).isTerminal() && !Deno.env.get("NO_COLOR");
      const value = await chooseOne(message, choices, { write, useColor });
      if (value === undefined) throw new Error("cancelled at the prompt");
      return value;
    },
    reason: async (message) => {
      const text = await terminalReader({ write }).read(`${message} › `, { interruptEnds: true });
      if (text === null) throw new Error("cancelled at the prompt");
      return text;
    },
  };
}

/** The terminal prompts on stdout (the REPL's). */
export const terminalPrompts: ApprovalPrompts = terminalPromptsOn();

/**
 * Builds the REPL's asker: prints the preview (coloured diff for writes, the full command for exec), then
 * asks Yes / Yes for the session / No with a reason / abort. Ctrl-C at either question aborts the turn.
 */
export function terminalAsker(options: TerminalAskerOptions): AskHuman {
  const useColor = options.useColor ?? Deno.stdout.isTerminal();
  const show = options.show ?? ((text: string) => console.log(text));
  const prompts = options.prompts ?? terminalPrompts;
  return async (request, need) => {
    options.beforeAsk();
    if (showsDiff(request)) await loadDiff().catch(() => {}); // a failure is said in the view
    show(approvalView(request, need, { useColor }));
    try {
      const choices = approvalChoices(request, need, { offerRules: options.offerRules });
      const kind = await prompts.choose(describeCall(request), choices);
      if (kind.startsWith("rule:")) return { kind: "rule", rule: kind.slice("rule:".length) };
      if (kind === "abort") options.onInterrupt();
      if (kind !== "deny") return { kind } as ApprovalAnswer;
      return { kind, reason: await prompts.reason("Why? (sent to the model; Enter to skip)") };
    } catch {
      // Esc, Ctrl-C or Ctrl-D (or the terminal went away) at the prompt stops the turn.
      options.onInterrupt();
      return { kind: "abort" };
    }
  };
}

/**
 * The four answers, always in the same places (1 yes, 2 yes for the session, 3 no with a reason, 4 abort);
 * "don't ask again" is disabled where the policy never remembers (protected paths, network).
 */
export function approvalChoices(
  request: ApprovalRequest,
  need: ApprovalNeed,
  options: { offerRules?: boolean } = {},
): ApprovalChoice[] {
  const session: ApprovalChoice = {
    name: `Yes, and don't ask again for ${request.call.name} this session`,
    value: "session",
  };
  if (need.why === "unsandboxed") {
    // An unconfined command is asked each time (the rules below can still cover this very command).
    session.disabled = "(unconfined commands are asked every time)";
  } else if (!need.rememberable) {
    const every: Partial<Record<ApprovalNeed["why"], string>> = {
      network: "(network access is asked every time)",
      destructive: "(commands that delete work are asked every time)",
      unclear_rule: "(a command a deny rule may cover is asked every time)",
      ask_rule: "(an ask rule or hook asks for this every time)",
    };
    session.disabled = every[need.why] ?? "(protected path: asked every time)";
  }
  // "Always allow" rules, saved for the project; never offered where the policy always asks.
  const rules: ApprovalChoice[] = options.offerRules && need.rememberable
    ? suggestRules(request).map(({ rule, label }) => ({
      name: `Yes, and always allow ${terminalSafe(label)} (saves ${terminalSafe(rule)})`,
      value: `rule:${rule}` as const,
    }))
    : [];
  return [
    { name: "Yes", value: "once" },
    session,
    ...rules,
    { name: "No, and tell the model why", value: "deny" },
    { name: "No, abort this turn", value: "abort" },
  ];
}

/** How a command will run, as the prompt shows it. */
export function sandboxLabel(request: ApprovalRequest): string {
  const { effect, sandboxed, server } = request.inspection;
  if (server) return `(${terminalSafe(server.name)} runs ${server.runsIn})`;
  const network = effect === "network";
  if (!sandboxed) return network ? "(UNSANDBOXED, network access requested)" : "(UNSANDBOXED)";
  return network ? "(network access requested)" : "(sandboxed: no network)";
}

/** The question: one line, the tool and its target; the detail is printed above it by `approvalView`. */
export function describeCall(request: ApprovalRequest): string {
  const { preview, summary } = request.inspection;
  if (request.inspection.server) return `Run ${terminalSafe(summary.split(" ").slice(0, 3).join(" "))}?`;
  if (preview?.kind === "command" && request.call.name !== "execute_command") {
    return `Allow ${request.call.name} ${sandboxLabel(request)}?`; // web_fetch: a request, not a command
  }
  if (preview?.kind === "command") return `Run this command ${sandboxLabel(request)}?`;
  // A new file's (or an unshown file's) size says what the diff cannot: how much is being written.
  const whole = preview?.kind === "write_blind" || (preview?.kind === "diff" && preview.created);
  const size = whole ? ` (${new TextEncoder().encode(preview.after).length} bytes)` : "";
  return `Allow ${request.call.name} on ${terminalSafe(summary)}${size}?`;
}

/** Whether the approval view of `request` draws a diff (the diff package is loaded for it first). */
function showsDiff(request: ApprovalRequest): boolean {
  const kind = request.inspection.preview?.kind;
  return kind === "diff" || kind === "write_blind";
}

/**
 * What is printed above the question: for a command, the whole command (what will run, every line, with
 * control characters made visible); for a file change, the coloured diff of the tool's own dry run and its
 * "+N −M lines"; then why it asks.
 */
export function approvalView(
  request: ApprovalRequest,
  need: ApprovalNeed,
  options: { useColor: boolean },
): string {
  const paint = (color: "yellow" | "dim" | "bold", text: string) =>
    options.useColor ? styleText(color, text) : text;
  const lines: string[] = [];
  const preview = request.inspection.preview;
  if (preview?.kind === "command") {
    const what = request.inspection.server
      ? "MCP tool"
      : request.call.name === "execute_command"
      ? "Command"
      : request.call.name;
    lines.push(paint("bold", `${what} ${sandboxLabel(request)}:`));
    lines.push(...terminalSafe(preview.command).split("\n").map((line) => `  ${line}`));
  } else if (preview?.kind === "write_blind") {
    lines.push(paint("dim", terminalSafe(`(current content not shown: ${preview.why})`)));
    lines.push(renderDiff(preview.path, "", preview.after, { useColor: options.useColor }));
  } else if (preview?.kind === "diff") {
    const view = { useColor: options.useColor, newFile: preview.created };
    lines.push(renderDiff(preview.path, preview.before, preview.after, view));
    lines.push(paint("dim", formatDiffSummary(diffSummary(preview.before, preview.after))));
  }
  // An edit's diff says it all; an MCP tool's heading already says where its server runs.
  if (need.why !== "edit" && need.why !== "mcp") {
    lines.push(paint("yellow", `⚠ ${terminalSafe(need.detail)}`));
  }
  return lines.join("\n");
}
