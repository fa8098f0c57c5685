/**
 * `tern sessions export ID|NAME --format md|html|jsonl`: a saved session rendered to stdout, offline (no
 * model, no network). jsonl is the session as checked on load: its header, then one entry per line.
 */
import { listSessions } from "../../agent/log/session_list.ts";
import { type LoadedSession, SessionError } from "../../agent/log/session_file.ts";
import { loadSession } from "../../agent/log/session_load.ts";
import { findSession } from "../../agent/log/session_names.ts";
import { transcriptOf } from "./transcript.ts";
import { terminalSafe } from "../render/terminal_safe.ts";

const FORMATS = ["md", "html", "jsonl"] as const;

/** Runs the export; resolves with the exit code (2 for bad usage or an unknown session). */
export async function runSessionExport(
  root: string,
  argv: string[],
  out: (text: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const usage = "use: tern sessions export ID|NAME --format md|html|jsonl";
  const at = argv.indexOf("--format");
  const format = at >= 0 ? argv[at + 1] : "md";
  const rest = argv.filter((_, i) => at < 0 || (i !== at && i !== at + 1));
  if (!(FORMATS as readonly string[]).includes(format ?? "")) {
    err(`tern: --format must be one of ${FORMATS.join(", ")} (got '${format ?? ""}'); ${usage}`);
    return 2;
  }
  if (rest.length !== 1) {
    err(`tern: name one session to export; ${usage}`);
    return 2;
  }
  const found = findSession(await listSessions(root), rest[0]);
  if ("problem" in found) throw new SessionError(found.problem);
  const loaded = await loadSession(root, found.id);
  const text = await rendered(loaded, format as typeof FORMATS[number]);
  // Session text came from outside: on a terminal no escape in it may act (a file gets it as rendered).
  out(Deno.stdout.isTerminal() ? terminalSafe(text) : text);
  return 0;
}

async function rendered(loaded: LoadedSession, format: typeof FORMATS[number]): Promise<string> {
  if (format === "jsonl") {
    const header = { ...loaded.header, ...(loaded.name !== undefined && { name: loaded.name }) };
    return [header, ...loaded.entries].map((line) => JSON.stringify(line)).join("\n") + "\n";
  }
  const transcript = transcriptOf(loaded);
  if (format === "md") return (await import("./export_md.ts")).transcriptMarkdown(transcript);
  return (await import("./export_html.ts")).transcriptHtml(transcript);
}
