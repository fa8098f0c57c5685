/** The system prompt: built from the registry's tools, stable across turns and sessions so providers cache it. */
import type { Tool } from "../tools/tool.ts";
import { TOOL_RESULT_NOTICE } from "./untrusted.ts";

/**
 * Builds the system prompt: who tern is, where the project is, one guidance line per tool (in the registry's
 * sorted order, so a tool added later fits without editing this file), and how to work. It holds nothing
 * that changes between requests (no clock, no counters), so every request's prefix stays byte-identical.
 */
export function systemPrompt(root: string, tools: readonly Pick<Tool, "guidance">[]): string {
  return [
    `You are tern, a coding agent in the user's project at ${root}. File paths are relative to it; tools ` +
    "cannot reach outside it.",
    ...tools.map((tool) => `- ${tool.guidance}`),
    "Find code before changing it. Work until the task is done, then say briefly what you changed and how " +
    "you checked it. On a tool error, fix the call instead of repeating it. Ask the user only when the task " +
    "is truly ambiguous.",
    TOOL_RESULT_NOTICE,
  ].join("\n");
}
