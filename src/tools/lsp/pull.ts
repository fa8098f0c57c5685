/**
 * Asking a server for a document's diagnostics now, instead of waiting for it to push them: the protocol's
 * own `textDocument/diagnostic` where the server offers it, and typescript-language-server's passage to
 * tsserver (`typescript.tsserverRequest`), whose pushes leave out a clean file that stayed clean (so a wait
 * for them could not tell "no problems" from "not yet"). Every field of an answer is checked: the server is a
 * program of the project's world.
 */
import type { RpcConnection } from "./jsonrpc.ts";

/** One problem as the server reported it (only the fields tern reads, bounded). */
export interface Diagnostic {
  line: number;
  character: number;
  /** 1 error, 2 warning, 3 information, 4 hint. */
  severity: number;
  message: string;
  code?: string;
  source?: string;
}

/** How a server is asked: not at all (it pushes), by the protocol, or through tsserver. */
export type PullKind = "push" | "standard" | "tsserver";

/** The diagnostics of `path` (real path; `uri` its URL) as `kind` asks for them. */
export async function pullDiagnostics(
  rpc: RpcConnection,
  kind: Exclude<PullKind, "push">,
  path: string,
  uri: string,
): Promise<Diagnostic[]> {
  if (kind === "standard") {
    const report = await rpc.request("textDocument/diagnostic", { textDocument: { uri } });
    const items = (report as { items?: unknown })?.items;
    return Array.isArray(items) ? items.slice(0, 1000).flatMap(checkedDiagnostic) : [];
  }
  const ask = (command: string) =>
    rpc.request("workspace/executeCommand", {
      command: "typescript.tsserverRequest",
      arguments: [command, { file: path, includeLinePosition: true }],
    });
  const answers = await Promise.all([ask("syntacticDiagnosticsSync"), ask("semanticDiagnosticsSync")]);
  return answers.flatMap((answer) => {
    const body = (answer as { body?: unknown })?.body;
    return Array.isArray(body) ? body.slice(0, 1000).flatMap(fromTsserver) : [];
  });
}

const CATEGORY: Record<string, number> = { error: 1, warning: 2, message: 3, suggestion: 4 };

function fromTsserver(raw: unknown): Diagnostic[] {
  const { message, category, code, startLocation } = (raw ?? {}) as Record<string, unknown>;
  const start = startLocation as { line?: unknown; offset?: unknown } | undefined;
  if (typeof message !== "string" || typeof start?.line !== "number") return [];
  return checkedDiagnostic({
    range: { start: { line: start.line - 1, character: Number(start.offset ?? 1) - 1 } },
    severity: CATEGORY[String(category)] ?? 1,
    message,
    code,
    source: "typescript",
  });
}

/** One diagnostic of the protocol's shape, checked and bounded; none when it has not that shape. */
export function checkedDiagnostic(raw: unknown): Diagnostic[] {
  const { range, severity, message, code, source } = (raw ?? {}) as Record<string, unknown>;
  const start = (range as { start?: { line?: unknown; character?: unknown } })?.start;
  if (typeof message !== "string" || typeof start?.line !== "number") return [];
  const character = Number(start.character);
  return [{
    line: Math.max(0, start.line),
    character: Number.isFinite(character) ? Math.max(0, character) : 0,
    severity: typeof severity === "number" ? severity : 1,
    message: message.slice(0, 500),
    ...(typeof code === "string" || typeof code === "number" ? { code: String(code).slice(0, 80) } : {}),
    ...(typeof source === "string" ? { source: source.slice(0, 40) } : {}),
  }];
}
