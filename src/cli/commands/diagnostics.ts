/** `/diagnostics`: the language servers of the session, and what each last said of the files edited. */
import { diagnosticLine } from "../../tools/lsp/report.ts";
import type { ServerView } from "../../tools/lsp/diagnostics.ts";
import type { SlashCommand } from "./types.ts";

/** Problems of one file listed at most; the rest are counted. */
const MAX_PER_FILE = 20;
const SEVERITY = ["", "error", "warning", "info", "hint"];

/** The lines of one server: its state and sandbox, then each file's problems (errors first). */
function serverLines(server: ServerView): { text: string; color?: "dim" | "yellow" | "red" }[] {
  const where = server.runsIn ? ` · ${server.runsIn}` : "";
  const restarted = server.restarts > 0 ? ` · restarted ${server.restarts}×` : "";
  const lines: { text: string; color?: "dim" | "yellow" | "red" }[] = [
    { text: `  ${server.name} (${server.command.join(" ")}): ${server.state}${restarted}${where}` },
  ];
  if (server.error) lines.push({ text: `    ${server.error}`, color: "yellow" });
  for (const file of server.files) {
    const sorted = [...file.diagnostics].sort((a, b) => a.severity - b.severity || a.line - b.line);
    if (sorted.length === 0) lines.push({ text: `    ${file.path}: no problems`, color: "dim" });
    for (const item of sorted.slice(0, MAX_PER_FILE)) {
      const color = item.severity === 1 ? "red" : item.severity === 2 ? "yellow" : "dim";
      lines.push({
        text: `    ${SEVERITY[item.severity] ?? "note"}  ${diagnosticLine(item, file.path)}`,
        color,
      });
    }
    const more = sorted.length - MAX_PER_FILE;
    if (more > 0) lines.push({ text: `    ... and ${more} more in ${file.path}`, color: "dim" });
  }
  return lines;
}

/** `/diagnostics` over the session's service (absent: `"lsp": false` in the settings). */
export const diagnosticsCommand: SlashCommand = {
  name: "/diagnostics",
  help: "the language servers checking edits, and the problems they last reported",
  run: (ctx) => {
    const service = ctx.session.diagnostics;
    if (service === undefined) {
      ctx.screen.print('Diagnostics are off ("lsp": false in the settings).', "dim");
      return "continue";
    }
    const servers = service.view();
    if (servers.length === 0) {
      ctx.screen.print(
        "No language server started yet: one starts at the first edit of a file it checks, when it is on " +
          'PATH (typescript-language-server, pyright-langserver, gopls, rust-analyzer, ...) or named in "lsp".',
        "dim",
      );
    }
    for (const server of servers) {
      for (const line of serverLines(server)) ctx.screen.print(line.text, line.color);
    }
    for (const note of service.skipped) ctx.screen.print(`  ${note}`, "dim");
    return "continue";
  },
};
