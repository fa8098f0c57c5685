/**
 * Project memory: `AGENTS.md` at the project root (or `CLAUDE.md` when there is none), with the files it
 * imports with `@path` (memory_imports.ts), goes into the system prompt, capped. tern reads nothing outside
 * the project, so there is no user-level memory file.
 */
import { readTextFile } from "../../fs/path_guard.ts";
import { expandImports } from "./memory_imports.ts";

/** The files read as memory, in order of preference. */
export const MEMORY_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
/** At most this many bytes of memory reach the prompt. */
export const MEMORY_CAP_BYTES = 32 * 1024;

/** What was loaded and from where. */
export interface ProjectMemory {
  /** The file, relative to the root. */
  source: string;
  /** The text as it goes into the prompt, imports included (cut at the cap, with a note when cut). */
  text: string;
  /** The size in bytes of the file and its imports. */
  bytes: number;
  truncated: boolean;
  /** The files `@path` imported, relative to the root, in order. */
  imports?: string[];
  /** One line per import refused (outside the root, a cycle, too deep, past the cap). */
  problems?: string[];
  /**
   * False while the project is not trusted: the prompt carries the text as project-supplied data, not as
   * instructions tern vouches for. Absent means trusted.
   */
  trusted?: boolean;
}

/** Reads the project's memory file; null when there is none (or it cannot be read as text). */
export async function loadMemory(root: string): Promise<ProjectMemory | null> {
  for (const source of MEMORY_FILES) {
    let file;
    try {
      file = await readTextFile(root, source);
    } catch {
      continue; // missing, outside the root through a symlink, binary: not memory
    }
    if (!file.info.isFile) continue;
    const main = file.text.replace(/\r\n/g, "\n").trimEnd();
    const expanded = await expandImports(root, source, main, MEMORY_CAP_BYTES);
    const encoded = new TextEncoder().encode(expanded.text);
    // The file's own size, plus what its imports added.
    const bytes = file.bytes + encoded.length - new TextEncoder().encode(main).length;
    const truncated = bytes > MEMORY_CAP_BYTES;
    let text = expanded.text;
    if (truncated) {
      // Cut on a character boundary: the decoder drops a split last character rather than garbling it.
      text = new TextDecoder().decode(encoded.subarray(0, MEMORY_CAP_BYTES)).replace(/\uFFFD$/, "").trimEnd();
      text += `\n\n[${source} was cut at ${MEMORY_CAP_BYTES / 1024} KB of ${bytes} bytes; ` +
        `read the rest with read_file if needed]`;
    }
    const { imports, problems } = expanded;
    return {
      source,
      text,
      bytes,
      truncated,
      ...imports.length > 0 && { imports },
      ...problems.length > 0 && { problems },
    };
  }
  return null;
}
