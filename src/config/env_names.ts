/**
 * The `TERN_*` variables tern reads, so that a misspelt one (`TERN_MODLE`) is said at start instead of being
 * silently ignored. `.env.example` documents each.
 */

/** Every `TERN_*` name tern (or its installer, or a command tern runs) reads. */
export const KNOWN_TERN_VARIABLES = [
  "TERN_API",
  "TERN_API_KEY",
  "TERN_BASE_URL",
  "TERN_COMMAND_ID",
  "TERN_DEBUG",
  "TERN_FIRST_BYTE_TIMEOUT",
  "TERN_IMAGES",
  "TERN_INSTALL_DIR",
  "TERN_MAX_RETRIES",
  "TERN_MCP_STARTUP_MS",
  "TERN_MODEL",
  "TERN_NOTIFY",
  "TERN_NOTIFY_AFTER",
  "TERN_PROVIDER",
  "TERN_RETRY_DELAY",
  "TERN_SEARCH_BASE_URL",
  "TERN_SEARXNG_URL",
  "TERN_STREAM_IDLE_TIMEOUT",
  "TERN_VERSION",
  "TERN_WEB_SEARCH",
] as const;

/** One line per unknown `TERN_*` name among `names` (from `source`: ".env" or "the environment"). */
export function unknownTernVariables(names: Iterable<string>, source: string): string[] {
  const known: readonly string[] = KNOWN_TERN_VARIABLES;
  const lines: string[] = [];
  for (const name of [...new Set(names)].sort()) {
    if (!name.startsWith("TERN_") || known.includes(name)) continue;
    const nearest = known.map((candidate) => ({ candidate, distance: distance(name, candidate) }))
      .sort((a, b) => a.distance - b.distance)[0];
    const hint = nearest.distance <= Math.max(2, Math.floor(name.length / 4))
      ? `did you mean ${nearest.candidate}?`
      : "tern reads no such variable (.env.example lists them)";
    lines.push(`unknown variable ${name} in ${source}: ${hint}`);
  }
  return lines;
}

/** Levenshtein distance, with a swap of two neighbours counting one (TERN_MODLE → TERN_MODEL). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}
