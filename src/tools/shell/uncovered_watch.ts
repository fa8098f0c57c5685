/**
 * While a sandboxed background command runs, the names no mount can cover (`.git/commondir`,
 * `.git/config.worktree`, a missing include file) are watched (inotify, in this process: no program is
 * started) and removed the moment one appears, so the user's git run meanwhile does not follow it to a
 * planted config; at each change in those folders `alsoCheck` runs too (a gitlink staged in the index is
 * tamed then, not at the command's end). A window of microseconds stays between a write and its undoing.
 */
import { dirname, join } from "../../fs/path.ts";
import { existsNoFollow } from "../../fs/path_basics.ts";

/** A running watch; `stop()` ends it and resolves with one phrase per removal. */
export interface UncoveredWatch {
  stop(): Promise<string[]>;
}

/**
 * Watches `names` (relative to `root`, missing now) and their folders until stopped; a folder it cannot
 * watch is skipped.
 */
export function watchUncovered(root: string, names: string[], alsoCheck: () => string[]): UncoveredWatch {
  const said: string[] = [];
  const folders = [...new Set(names.map((name) => join(root, dirname(name))))].filter(existsNoFollow);
  if (folders.length === 0) return { stop: () => Promise.resolve(said) };
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(folders, { recursive: false });
  } catch {
    return { stop: () => Promise.resolve(said) };
  }
  const sweep = () => {
    for (const name of names) {
      if (!existsNoFollow(join(root, name))) continue;
      try {
        Deno.removeSync(join(root, name), { recursive: true });
        said.push(`removed ${name} (created while it ran)`);
      } catch {
        // Gone meanwhile.
      }
    }
    said.push(...alsoCheck());
  };
  const watching = (async () => {
    try {
      for await (const _ of watcher) sweep();
    } catch {
      // The folder went away: nothing more to watch.
    }
  })();
  return {
    stop: async () => {
      watcher.close();
      await watching;
      sweep();
      return said;
    },
  };
}
