/**
 * The environment of the programs tern runs for the model and the user (execute_command's commands, MCP
 * servers): a few harmless variables, never an API key.
 */

/** Environment variables passed on (plus LC_*); everything else (API keys above all) stays behind. */
const PASSED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TMPDIR", "TZ"];

/** Names never passed on, whatever the list above says; execute_command also redacts their values. */
export const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

/** The reduced environment a command runs with: a few harmless variables, never a secret. */
export function childEnv(options: { sandboxed?: boolean } = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(Deno.env.toObject())) {
    if ((PASSED_ENV.includes(name) || name.startsWith("LC_")) && !SECRET_NAME.test(name)) env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  // Inside the sandbox only /tmp (private) and the project are writable.
  if (options.sandboxed) env.TMPDIR = "/tmp";
  return env;
}
