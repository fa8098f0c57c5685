/**
 * Project memory: `AGENTS.md` at the project root (or `CLAUDE.md` when there is none) goes into the system
 * prompt, capped. tern reads nothing outside the project, so there is no user-level memory file.
 */
import { readTextFile } from "../fs/path_guard.ts";

/** The files read as memory, in order of preference. */
export const MEMORY_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
/** At most this many bytes of memory reach the prompt. */
export const MEMORY_CAP_BYTES = 32 * 1024;

/** What was loaded and from where. */
export interface ProjectMemory {
  /** The file, relative to the root. */
  source: string;
  /** The text as it goes into the prompt (cut at the cap, with a note when cut). */
  text: string;
  /** The file's size in bytes. */
  bytes: number;
  truncated: boolean;
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
    const bytes = new TextEncoder().encode(file.text);
    const truncated = bytes.length > MEMORY_CAP_BYTES;
    let text = file.text.replace(/\r\n/g, "\n").trimEnd();
    if (truncated) {
      // Cut on a character boundary: the decoder drops a split last character rather than garbling it.
      text = new TextDecoder().decode(bytes.subarray(0, MEMORY_CAP_BYTES)).replace(/\uFFFD$/, "").trimEnd();
      text += `\n\n[${source} was cut at ${MEMORY_CAP_BYTES / 1024} KB of ${bytes.length} bytes; ` +
        `read the rest with read_file if needed]`;
    }
    return { source, text, bytes: bytes.length, truncated };
  }
  return null;
}
