/** Tab completion at the prompt: slash command names at the start, `@path` mentions anywhere. */
import { join } from "../../fs/path.ts";
import { resolvePath } from "../../fs/path_guard.ts";
import type { Completer, Completion } from "./line_editor.ts";

/** Entries listed at most for one @path completion. */
const MAX_CANDIDATES = 50;

/** A completer over the command names and the files under `root`. */
export function createCompleter(commandNames: () => string[], root: string): Completer {
  return async (text, cursor) => {
    const before = text.slice(0, cursor);
    if (/^\/\S*$/.test(before)) {
      const candidates = commandNames().filter((name) => name.startsWith(before)).sort();
      return candidates.length === 0 ? undefined : { start: 0, candidates: candidates.map((c) => c + " ") };
    }
    const mention = /(?:^|\s)@(\S*)$/.exec(before);
    if (!mention) return undefined;
    return await completePath(root, mention[1], cursor - mention[1].length);
  };
}

async function completePath(root: string, partial: string, start: number): Promise<Completion | undefined> {
  const slash = partial.lastIndexOf("/");
  const dir = partial.slice(0, slash + 1);
  const prefix = partial.slice(slash + 1);
  try {
    const guarded = await resolvePath(root, dir === "" ? "." : dir);
    if (!guarded.info?.isDirectory) return undefined;
    const candidates: string[] = [];
    for await (const entry of Deno.readDir(guarded.real)) {
      if (!entry.name.startsWith(prefix) || (entry.name.startsWith(".") && !prefix.startsWith("."))) continue;
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      const isDir = entry.isDirectory ||
        (entry.isSymlink && await isDirectory(join(guarded.real, entry.name)));
      candidates.push(dir + entry.name + (isDir ? "/" : " "));
      if (candidates.length >= MAX_CANDIDATES) break;
    }
    return candidates.length === 0 ? undefined : { start, candidates: candidates.sort() };
  } catch {
    return undefined; // outside the root, unreadable: nothing to offer
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/** The longest prefix all candidates share. */
export function commonPrefix(candidates: string[]): string {
  if (candidates.length === 0) return "";
  let prefix = candidates[0];
  for (const candidate of candidates) {
    while (!candidate.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
