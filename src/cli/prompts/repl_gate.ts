/**
 * The REPL's approval gate: the policy and the project's rules, the terminal prompt when a call needs a yes
 * (the cancel-key listener steps aside while it asks), "always allow" answers saved for the project, and
 * the diff of an edit that runs without asking (`--approve edits`, a rule, "don't ask again") printed anyway.
 */
import type { ApprovalDecision, ApprovalGate, AskHuman } from "../../agent/policy/approval.ts";
import type { ApprovalRequest } from "../../agent/policy/approval_request.ts";
import type { AgentSession } from "../../agent/agent_session.ts";
import { terminalAsker } from "./approval.ts";
import { diffSummary, formatDiffSummary, renderDiff } from "../render/diff_view.ts";
import { loadDiff } from "../../text_diff.ts";
import type { KeyListener } from "../input/keys.ts";
import type { Renderer } from "../render/renderer.ts";

/** What the gate needs from the REPL for one task. */
export interface ReplGateOptions {
  /** Its approval mode, rules and remembered answers decide; "always allow" rules are saved through it. */
  session: AgentSession;
  screen: Renderer;
  /** The cancel-key listener, paused while the prompt reads the keys; absent off a terminal. */
  keys?: KeyListener;
  /** Stops the task (abort at the prompt). */
  cancel(): void;
  useColor: boolean;
  /** Told when a question is about to wait for the human (the nudge when the terminal is not focused). */
  onAsk?(summary: string): void;
}

/** Builds the gate for one task. Off a terminal (no `keys`), calls that need a yes are refused. */
export function replGate(options: ReplGateOptions): ApprovalGate {
  const { screen, keys } = options;
  const prompt = keys && terminalAsker({
    beforeAsk: () => screen.pause(),
    onInterrupt: options.cancel,
    useColor: options.useColor,
    show: (text) => screen.printRendered(text),
    offerRules: true,
  });
  const asked = new Set<string>(); // call ids the human saw (and so saw the diff of)
  const asker: AskHuman | undefined = prompt && (async (request, need) => {
    asked.add(request.call.id);
    options.onAsk?.(`${request.call.name} ${request.inspection.summary}`);
    keys.pause();
    try {
      return await prompt(request, need);
    } finally {
      keys.resume();
    }
  });
  // An edit that runs unasked still shows what it changes: nothing is written out of sight.
  const showUnasked = async (request: ApprovalRequest, decision: ApprovalDecision) => {
    const preview = request.inspection.preview;
    if (!decision.allow || asked.has(request.call.id) || preview?.kind !== "diff") return;
    await loadDiff().catch(() => {}); // a failure is said in the view
    screen.pause();
    const view = { useColor: options.useColor, newFile: preview.created };
    screen.printRendered(renderDiff(preview.path, preview.before, preview.after, view));
    screen.print(formatDiffSummary(diffSummary(preview.before, preview.after)), "dim");
  };
  const gate = options.session.gate(asker, (rule, error) => {
    if (error) screen.print(`Could not save "${rule}": ${error.message}`, "yellow");
    else screen.print(`Saved "${rule}" in .tern/local/settings.json.`, "dim");
  });
  return async (request) => {
    const decision = await gate(request);
    await showUnasked(request, decision);
    return decision;
  };
}
