/**
 * The REPL's prompt history, kept per project in tern's own state (`.tern/local/history`): one sealed JSON
 * object a line (`{"prompt":"…","seal":"…"}`), oldest first. A history file the repository brought, or a
 * line a `git pull` wrote there, is never read (see agent/tern_dir.ts and agent/state_seal.ts): a recalled
 * prompt is sent as the user's own.
 */
import { join } from "../../fs/path.ts";
import { boundStatePath, STATE_DIR, stateDir } from "../../agent/state/tern_dir.ts";
import { replaceStateFile, stateSeal } from "../../agent/state/seal.ts";
import { HISTORY_FILE, historyEntry, historyLine } from "../../agent/log/history_seal.ts";
import { endsLine } from "../../fs/line_end.ts";

/** Entries kept; older ones are dropped when the file is rewritten. */
const MAX_ENTRIES = 1000;

/** The history file's place in the project. */
export const HISTORY_PATH = `${STATE_DIR}/history`;
/** A project's prompt history; saving is best effort (a read-only project still has the session's). */
export class PromptHistory {
  #entries: string[];
  #root: string | undefined;

  private constructor(entries: string[], root: string | undefined) {
    this.#entries = entries;
    this.#root = root;
  }

  /** Loads the history of `root` (missing or unreadable: empty); without a root, memory only. */
  static async load(root?: string): Promise<PromptHistory> {
    if (root === undefined) return new PromptHistory([], undefined);
    const entries: string[] = [];
    const file = boundStatePath(root, HISTORY_FILE);
    const seal = stateSeal(root);
    try {
      if (file !== undefined && seal !== undefined && (await Deno.lstat(file)).isFile) {
        for (const line of (await Deno.readTextFile(file)).split("\n")) {
          const entry = historyEntry(seal, line); // a torn or unsealed line: skipped
          if (entry !== undefined) entries.push(entry);
        }
      }
    } catch { /* unreadable: history stays in memory */ }
    return new PromptHistory(entries.slice(-MAX_ENTRIES), root);
  }

  /** The entries, oldest first. */
  entries(): string[] {
    return [...this.#entries];
  }

  /** Adds an entry (not a repeat of the last one) and appends it to the file. */
  add(entry: string): void {
    if (entry.trim() === "" || this.#entries.at(-1) === entry) return;
    this.#entries.push(entry);
    if (this.#root === undefined) return;
    try {
      const dir = stateDir(this.#root, "");
      const file = join(dir, HISTORY_FILE);
      const seal = stateSeal(this.#root);
      if (seal === undefined) return;
      // Written anew when long, or when it ends in half a line (a tern killed mid-append): a line appended
      // onto that would be unsealed, and the start-up check would move the whole history aside.
      if (this.#entries.length > MAX_ENTRIES * 2 || !endsLine(file)) {
        this.#entries = this.#entries.slice(-MAX_ENTRIES);
        replaceStateFile(dir, HISTORY_FILE, this.#entries.map((e) => historyLine(seal, e)).join(""));
      } else {
        Deno.writeTextFileSync(file, historyLine(seal, entry), { append: true });
      }
    } catch { /* read-only project: the session still remembers */ }
  }
}
