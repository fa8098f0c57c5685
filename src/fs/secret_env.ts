/** The `.env` files that hold keys: no tool reads them, whatever a name or a link says. */
import { basename } from "./path.ts";
import { ToolError } from "./tool_error.ts";
import { showPath } from "./path_basics.ts";

/** `.env` and `.env.*` in any case; the templates below are the exception. */
const SECRET_ENV_NAME = /^\.env(?:\..*)?$/is;

/** Env-file names that are templates without real values, so reading them is safe and useful. */
const ENV_TEMPLATES = new Set([".env.example", ".env.sample", ".env.template"]);

/** True for a file name like `.env` or `.env.local` that holds secrets; `.env.example` and kin are not. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name) && !ENV_TEMPLATES.has(name.toLowerCase());
}

/** The refusal of a `.env` file: it holds the API key, and the model must never see it. */
export class SecretFileError extends ToolError {}

/** Refuses `path` when it names, or resolves to, a secret env file (a symlink must not launder the name). */
export function refuseSecretEnv(path: string, real: string, rel: string): void {
  if (!isSecretEnvName(basename(path)) && !isSecretEnvName(basename(real))) return;
  // No allow switch yet: a flag or config key can come later; until then the user pastes what is needed.
  throw new SecretFileError(
    `${showPath(rel)}: refused: .env files hold secrets (API keys), so tern does not read them. ` +
      `If the user wants part of it read, they can paste the needed part into the chat ` +
      `(without the secret values). .env.example, .env.sample and .env.template can be read.`,
  );
}
