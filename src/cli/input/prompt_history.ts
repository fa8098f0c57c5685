/** The REPL's prompt history, kept per project in `.tern/history`: one JSON string a line, oldest first. */
import { dirname, join } from "node:path";
import { resolvePath } from "../../fs/path_guard.ts";

/** Entries kept; older ones are dropped when the file is rewritten. */
const MAX_ENTRIES = 1000;

/** The history file's place in the project. */
export const HISTORY_PATH = ".tern/history";

/** A project's prompt history; saving is best effort (a read-only project still has the session's). */
export class PromptHistory {
  #entries: string[];
  #file: string | undefined;

  private constructor(entries: string[], file: string | undefined) {
    this.#entries = entries;
    this.#file = file;
  }

  /** Loads `.tern/history` under `root` (missing or unreadable: empty); without a root, memory only. */
  static async load(root?: string): Promise<PromptHistory> {
    if (root === undefined) return new PromptHistory([], undefined);
    let file: string | undefined;
    const entries: string[] = [];
    try {
      const guarded = await resolvePath(root, HISTORY_PATH);
      file = guarded.real;
      if (guarded.info?.isFile) {
        for (const line of (await Deno.readTextFile(file)).split("\n")) {
          try {
            const entry = JSON.parse(line);
            if (typeof entry === "string") entries.push(entry);
          } catch { /* a torn line: skipped */ }
        }
      }
    } catch { /* .tern leads outside the root, or unreadable: history stays in memory */ }
    return new PromptHistory(entries.slice(-MAX_ENTRIES), file);
  }

  /** The entries, oldest first. */
  entries(): string[] {
    return [...this.#entries];
  }

  /** Adds an entry (not a repeat of the last one) and appends it to the file. */
  add(entry: string): void {
    if (entry.trim() === "" || this.#entries.at(-1) === entry) return;
    this.#entries.push(entry);
    if (this.#file === undefined) return;
    try {
      const dir = dirname(this.#file);
      Deno.mkdirSync(dir, { recursive: true });
      try {
        Deno.writeTextFileSync(join(dir, ".gitignore"), "*\n", { createNew: true });
      } catch { /* already there */ }
      if (this.#entries.length > MAX_ENTRIES * 2) {
        this.#entries = this.#entries.slice(-MAX_ENTRIES);
        Deno.writeTextFileSync(this.#file, this.#entries.map((e) => JSON.stringify(e) + "\n").join(""));
      } else {
        Deno.writeTextFileSync(this.#file, JSON.stringify(entry) + "\n", { append: true });
      }
    } catch { /* read-only project: the session still remembers */ }
  }
}
