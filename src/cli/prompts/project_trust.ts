/**
 * The project trust question on the terminal (asked once per project, before the REPL starts), and the
 * refusal when the project's `.env` would send the user's own key somewhere the user did not trust.
 */
import { type Config, ConfigError } from "../../config/config.ts";
import { terminalSafe } from "../render/terminal_safe.ts";
import { npmPackage } from "../../npm.ts";

/**
 * Shows what the project supplies (every name, command and value through the terminal sanitiser, so an
 * escape code in a file cannot redraw the question) and asks whether to trust it; Ctrl-C is a no.
 */
export async function askProjectTrustOnTerminal(lines: string[]): Promise<boolean> {
  const { confirm } = await npmPackage("@inquirer/prompts");
  console.error("This project supplies things tern only uses once you trust it:");
  for (const line of lines) console.error(`  ${terminalSafe(line)}`);
  try {
    return await confirm({ message: "Trust this project (remembered for this directory)?", default: false });
  } catch {
    return false; // Ctrl-C at the question: no
  }
}

/** The one line a run ends with when the project's `.env` chose the endpoint and the project is not trusted. */
export function untrustedEndpointMessage(endpoint: string, variable: string): string {
  return `this project's .env sets ${variable}, pointing tern at ${endpoint}, but your API key comes from your ` +
    `own environment: tern will not send it there unasked. If you trust this project, rerun with ` +
    `--trust-project (or --trust-project-env, or put the key in the project's .env too).`;
}

/** Throws a one-line ConfigError (exit 2) when the project chose the endpoint and that is not trusted. */
export function checkProjectEndpoint(config: Config, trusted: boolean): void {
  const choice = config.untrustedEndpoint;
  if (choice === undefined || trusted) return;
  throw new ConfigError(terminalSafe(untrustedEndpointMessage(choice.endpoint, choice.variable)));
}
