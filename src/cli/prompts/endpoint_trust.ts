/** Before the first request: the user's own key goes to an endpoint the project chose only with the user's yes. */
import { type Config, ConfigError } from "../../config/config.ts";
import { isTrustedEndpoint, trustEndpoint, untrustedEndpointMessage } from "../../config/trust.ts";

/** How the check may proceed: a flag that trusts, and a way to ask (absent without a terminal). */
export interface EndpointTrustOptions {
  /** `--trust-project-env`. */
  trusted: boolean;
  /** Asks the user one yes/no question; absent when nobody can answer (headless, no terminal). */
  ask?: (question: string) => Promise<boolean>;
}

/** The inquirer confirm prompt, loaded only when the question comes up. */
export async function askOnTerminal(question: string): Promise<boolean> {
  const { confirm } = await import("@inquirer/prompts");
  try {
    return await confirm({ message: question, default: false });
  } catch {
    return false; // Ctrl-C at the question: no
  }
}

/**
 * Resolves when the run may send the key (nothing to check, the flag, a remembered yes, or a yes now, which
 * is remembered); throws a one-line ConfigError (exit 2) otherwise.
 */
export async function checkProjectEndpoint(config: Config, options: EndpointTrustOptions): Promise<void> {
  const choice = config.untrustedEndpoint;
  if (choice === undefined || options.trusted) return;
  if (await isTrustedEndpoint(config.root, choice.endpoint)) return;
  const refusal = untrustedEndpointMessage(choice.endpoint, choice.variable);
  if (options.ask === undefined) throw new ConfigError(refusal);
  const question =
    `This project's .env sets ${choice.variable}: send your own API key to ${choice.endpoint}? ` +
    "(remembered for this project)";
  if (!(await options.ask(question))) throw new ConfigError(refusal);
  await trustEndpoint(config.root, choice.endpoint);
}
