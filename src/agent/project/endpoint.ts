/** The refusal when the project's `.env` would send the user's own key somewhere the user did not trust. */
import type { Config } from "../../config/config.ts";
import { ConfigError } from "../../config/config_error.ts";

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
  throw new ConfigError(untrustedEndpointMessage(choice.endpoint, choice.variable));
}
