/**
 * Trust in a project's choice of endpoint: a cloned repository's `.env` may point tern at any host, and the
 * user's own API key must not follow it there unasked. A "yes" is remembered in `.tern/trust.json`, which
 * commands in the sandbox cannot write.
 */
import { join } from "node:path";

const TRUST_FILE = ".tern/trust.json";

/** The file's shape: endpoints the user allowed their key to be sent to, for this project. */
interface TrustFile {
  endpoints: string[];
}

async function read(root: string): Promise<TrustFile> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(join(root, TRUST_FILE)));
    const endpoints = Array.isArray(parsed?.endpoints)
      ? parsed.endpoints.filter((e: unknown) => typeof e === "string")
      : [];
    return { endpoints };
  } catch {
    return { endpoints: [] }; // missing or unreadable: nothing trusted yet
  }
}

/** True when the user already allowed their key to go to `endpoint` from this project. */
export async function isTrustedEndpoint(root: string, endpoint: string): Promise<boolean> {
  return (await read(root)).endpoints.includes(endpoint);
}

/** Remembers that the user allows their key to go to `endpoint` from this project. */
export async function trustEndpoint(root: string, endpoint: string): Promise<void> {
  const file = await read(root);
  if (file.endpoints.includes(endpoint)) return;
  await Deno.mkdir(join(root, ".tern"), { recursive: true });
  await Deno.writeTextFile(join(root, ".tern", ".gitignore"), "*\n", { createNew: true }).catch(() => {});
  const next = { endpoints: [...file.endpoints, endpoint].sort() };
  await Deno.writeTextFile(join(root, TRUST_FILE), JSON.stringify(next, null, 2) + "\n");
}

/** The one line a run without a terminal (or a "no") ends with. */
export function untrustedEndpointMessage(endpoint: string, variable: string): string {
  return `this project's .env sets ${variable}, pointing tern at ${endpoint}, but your API key comes from your ` +
    `own environment: tern will not send it there unasked. If you trust this project, rerun with ` +
    `--trust-project-env (or put the key in the project's .env too).`;
}
