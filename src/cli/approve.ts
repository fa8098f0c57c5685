/** The REPL's approval prompt: shows what a call will do (a diff, the whole command), then asks. */
import { styleText } from "node:util";
import {
  type ApprovalAnswer,
  type ApprovalGate,
  type ApprovalRequest,
  type AskHuman,
  type Assessment,
  requestArgs,
} from "../agent/approval.ts";
import { readTextFile, resolvePath } from "../tools/path_guard.ts";
import { diffSummary, formatDiffSummary, renderDiff, terminalSafe } from "./diff_view.ts";
import { summarizeArgs } from "./render.ts";

/** Why the policy asks (the `ask: true` half of an Assessment). */
export type ApprovalNeed = Extract<Assessment, { ask: true }>;

/** One answer offered at the prompt; a disabled one is shown greyed out with why, so numbers never shift. */
export interface ApprovalChoice {
  name: string;
  value: ApprovalAnswer["kind"];
  disabled?: string;
}

/** A write's proposed change. `exact: false` = old_text → new_text shown alone (it did not apply exactly). */
export interface ChangePreview {
  path: string;
  oldText: string;
  newText: string;
  exact: boolean;
  /** The file does not exist yet. */
  created?: boolean;
  /** Why the current content is not shown (binary, too large, a secrets file); printed above the diff. */
  note?: string;
}

/** The two questions the asker puts; injectable so the flow is testable without a terminal. */
export interface ApprovalPrompts {
  choose(message: string, choices: ApprovalChoice[]): Promise<ApprovalAnswer["kind"]>;
  reason(message: string): Promise<string>;
}

/** What the terminal asker needs from the REPL. */
export interface TerminalAskerOptions {
  /** Called before anything is printed, e.g. to stop the spinner. */
  beforeAsk(): void;
  /** Ctrl-C at the prompt, or "abort this turn": cancel the running task. */
  onInterrupt(): void;
  /** Project root for reading the file a diff is made against; default the current directory (= the root). */
  root?: string;
  /** Prints the preview above the question; default stdout. */
  show?: (text: string) => void;
  useColor?: boolean;
  /** Previews already captured for these calls (see ChangeTracker), so files are read once. */
  changes?: ChangeTracker;
  prompts?: ApprovalPrompts;
}

/** The inquirer prompts: a numbered select (1-4 or arrows, Enter), then an optional free-text reason. */
export const inquirerPrompts: ApprovalPrompts = {
  // Loaded on first use: the library costs ~60 ms of start-up that headless runs never need.
  choose: async (message, choices) => {
    const { select } = await import("@inquirer/prompts");
    return await select({ message, choices, default: "once", theme: { indexMode: "number" } });
  },
  reason: async (message) => {
    const { input } = await import("@inquirer/prompts");
    return await input({ message });
  },
};

/**
 * Builds the REPL's asker: prints the preview (coloured diff for writes, the full command for exec), then
 * asks Yes / Yes for the session / No with a reason / abort. Ctrl-C at either question aborts the turn.
 */
export function terminalAsker(options: TerminalAskerOptions): AskHuman {
  const root = options.root ?? Deno.cwd();
  const useColor = options.useColor ?? Deno.stdout.isTerminal();
  const show = options.show ?? ((text: string) => console.log(text));
  const prompts = options.prompts ?? inquirerPrompts;
  return async (request, need) => {
    options.beforeAsk();
    const preview = request.effect === "write"
      ? options.changes?.get(request.call.id) ?? await previewChange(root, request)
      : undefined;
    show(approvalView(request, need, { preview, useColor }));
    try {
      const kind = await prompts.choose(describeCall(request), approvalChoices(request, need));
      if (kind === "abort") options.onInterrupt();
      if (kind !== "deny") return { kind } as ApprovalAnswer;
      return { kind, reason: await prompts.reason("Why? (sent to the model; Enter to skip)") };
    } catch {
      // ExitPromptError: Ctrl-C (or the terminal went away) at the prompt stops the turn.
      options.onInterrupt();
      return { kind: "abort" };
    }
  };
}

/**
 * The four answers, always in the same places (1 yes, 2 yes for the session, 3 no with a reason, 4 abort);
 * "don't ask again" is disabled where the policy never remembers (protected paths, network).
 */
export function approvalChoices(request: ApprovalRequest, need: ApprovalNeed): ApprovalChoice[] {
  const session: ApprovalChoice = {
    name: `Yes, and don't ask again for ${request.call.name} this session`,
    value: "session",
  };
  if (!need.rememberable) {
    session.disabled = need.why === "network"
      ? "(network access is asked every time)"
      : "(protected path: asked every time)";
  }
  return [
    { name: "Yes", value: "once" },
    session,
    { name: "No, and tell the model why", value: "deny" },
    { name: "No, abort this turn", value: "abort" },
  ];
}

/** How a command will run, as the prompt shows it. */
export function sandboxLabel(request: ApprovalRequest): string {
  const network = requestArgs(request).network === true;
  if (!request.sandboxed) return network ? "(UNSANDBOXED, network access requested)" : "(UNSANDBOXED)";
  return network ? "(network access requested)" : "(sandboxed: no network)";
}

/** The question: one line, the tool and its target; the detail is printed above it by `approvalView`. */
export function describeCall(request: ApprovalRequest): string {
  const args = requestArgs(request);
  if (request.effect === "exec" && typeof args.command === "string") {
    return `Run this command ${sandboxLabel(request)}?`;
  }
  if (typeof args.path === "string") {
    const size = typeof args.content === "string"
      ? ` (${new TextEncoder().encode(args.content).length} bytes)`
      : "";
    return `Allow ${request.call.name} on ${terminalSafe(args.path)}${size}?`;
  }
  return `Allow ${request.call.name} ${terminalSafe(summarizeArgs(request.call.arguments))}?`;
}

/**
 * What is printed above the question: for a command, the whole command (what will run, every line, with
 * control characters made visible); for a write, the coloured diff and its "+N −M lines"; then why it asks.
 */
export function approvalView(
  request: ApprovalRequest,
  need: ApprovalNeed,
  options: { preview?: ChangePreview; useColor: boolean },
): string {
  const paint = (color: "yellow" | "dim" | "bold", text: string) =>
    options.useColor ? styleText(color, text, { validateStream: false }) : text;
  const lines: string[] = [];
  const command = requestArgs(request).command;
  if (request.effect === "exec" && typeof command === "string") {
    lines.push(paint("bold", `Command ${sandboxLabel(request)}:`));
    lines.push(...terminalSafe(command).split("\n").map((line) => `  ${line}`));
  }
  const preview = options.preview;
  if (preview?.note) lines.push(paint("dim", terminalSafe(preview.note)));
  if (preview) {
    if (!preview.exact && !preview.note) {
      lines.push(
        paint(
          "dim",
          "old_text → new_text (no exact match in the file; edit_file's looser matching may find it):",
        ),
      );
    }
    const view = { useColor: options.useColor, newFile: preview.created };
    lines.push(renderDiff(preview.path, preview.oldText, preview.newText, view));
    // Counts only mean something when the diff is of the whole file.
    if (preview.exact) {
      lines.push(paint("dim", formatDiffSummary(diffSummary(preview.oldText, preview.newText))));
    }
  }
  if (need.why !== "edit") lines.push(paint("yellow", `⚠ ${terminalSafe(need.detail)}`));
  return lines.join("\n");
}

/**
 * The change a write_file or edit_file call proposes, read against the file as it is now (through the path
 * guard: nothing outside the root is read). undefined for other tools or a call without a path.
 */
export async function previewChange(
  root: string,
  request: ApprovalRequest,
): Promise<ChangePreview | undefined> {
  const args = requestArgs(request);
  if (typeof args.path !== "string") return undefined;
  const path = args.path;
  const current = await currentText(root, path);
  if (typeof args.content === "string") {
    if ("unreadable" in current) {
      const note = `(current content not shown: ${current.unreadable})`;
      return { path, oldText: "", newText: args.content, exact: false, note };
    }
    return { path, oldText: current.text, newText: args.content, exact: true, created: current.created };
  }
  const edits = editsOf(args);
  if (edits.length === 0) return undefined;
  if ("text" in current) {
    const applied = applyExactly(current.text, edits, args.replace_all === true);
    if (applied !== undefined) return { path, oldText: current.text, newText: applied, exact: true };
  }
  const joined = (pick: (edit: Edit) => string) => edits.map(pick).join("\n⋯\n");
  return {
    path,
    oldText: joined((edit) => edit.old_text),
    newText: joined((edit) => edit.new_text),
    exact: false,
  };
}

/** The file's text now ("" and created when it does not exist yet), or in short why it cannot be shown. */
async function currentText(
  root: string,
  path: string,
): Promise<{ text: string; created: boolean } | { unreadable: string }> {
  try {
    if ((await resolvePath(root, path)).info === null) return { text: "", created: true };
    return { text: (await readTextFile(root, path)).text, created: false };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    // The guard words its refusals for the model; the first sentence is what a person needs.
    return { unreadable: error.message.split(/(?<=\.)\s/)[0] };
  }
}

type Edit = { old_text: string; new_text: string };

function editsOf(args: Record<string, unknown>): Edit[] {
  const isEdit = (value: unknown): value is Edit =>
    typeof value === "object" && value !== null &&
    typeof (value as Edit).old_text === "string" && typeof (value as Edit).new_text === "string";
  if (Array.isArray(args.edits)) return args.edits.filter(isEdit);
  return isEdit(args) ? [{ old_text: args.old_text, new_text: args.new_text }] : [];
}

/**
 * Applies edits with plain exact replacement (LF text also against a CRLF file): the preview's simplest
 * guess. undefined when an edit does not match exactly once (or at all, with replace_all): then the
 * tool's smarter matching decides, and the prompt shows old_text → new_text instead.
 */
function applyExactly(text: string, edits: Edit[], replaceAll: boolean): string | undefined {
  let buffer = text;
  for (const edit of edits) {
    let { old_text: from, new_text: to } = edit;
    if (from === "") return undefined;
    if (!buffer.includes(from) && buffer.includes("\r\n") && !from.includes("\r")) {
      from = from.replaceAll("\n", "\r\n");
      to = to.replaceAll("\r\n", "\n").replaceAll("\n", "\r\n");
    }
    const count = buffer.split(from).length - 1;
    if (count === 0 || (!replaceAll && count > 1)) return undefined;
    buffer = replaceAll ? buffer.replaceAll(from, () => to) : buffer.replace(from, () => to);
  }
  return buffer;
}

/**
 * Remembers each write's proposed change by call id, captured before the write runs (the gate sees every
 * write first, under any policy), so the REPL can print "+N −M lines" after it succeeds.
 */
export class ChangeTracker {
  #root: string;
  #previews = new Map<string, ChangePreview>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Reads and stores the preview of a write call (no-op for other calls). */
  async capture(request: ApprovalRequest): Promise<void> {
    if (request.effect !== "write") return;
    const preview = await previewChange(this.#root, request);
    if (preview) this.#previews.set(request.call.id, preview);
  }

  /** The captured preview of call `id`. */
  get(id: string): ChangePreview | undefined {
    return this.#previews.get(id);
  }

  /** "+N −M lines" for call `id` when its change was known exactly; forgets the call either way. */
  summary(id: string): string | undefined {
    const preview = this.#previews.get(id);
    this.#previews.delete(id);
    if (!preview?.exact) return undefined;
    return formatDiffSummary(diffSummary(preview.oldText, preview.newText));
  }
}

/** Wraps a gate so each write's change is captured before it can run, whatever the policy decides. */
export function withChangeCapture(gate: ApprovalGate, changes: ChangeTracker): ApprovalGate {
  return async (request) => {
    await changes.capture(request);
    return await gate(request);
  };
}
