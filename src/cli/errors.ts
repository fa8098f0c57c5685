/** Failed model calls in the CLI's words: which flag, variable or REPL command fixes them. */
import { type CallContext, describeLlmError, type LlmProblem } from "../llm/retry.ts";

/** How to fix `problem` with tern's flags, variables and commands; plugged in as `CallContext.advise`. */
export function adviseOnLlmProblem(problem: LlmProblem, context: CallContext): string | undefined {
  const keys = context.keyEnv ? `TERN_API_KEY or ${context.keyEnv}` : "TERN_API_KEY";
  switch (problem) {
    case "key_rejected":
      return `set a valid key in ${keys}`;
    case "no_access":
      return `check the key in ${keys} and the account's permissions`;
    case "model_not_found":
      return `check --model (TERN_MODEL), or the base URL (--base-url, TERN_BASE_URL) if it is not ` +
        context.provider;
    case "context_overflow":
      return "start a new conversation (/clear in the REPL) or split the task";
    case "invalid_request":
      return undefined;
  }
}

/** One line for the user about a failed model call, with the CLI's advice on how to fix it. */
export function describeModelError(error: unknown, context: Omit<CallContext, "advise">): string {
  return describeLlmError(error, { ...context, advise: adviseOnLlmProblem }).message;
}
