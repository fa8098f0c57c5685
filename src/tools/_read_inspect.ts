/** The inspection shared by the read-only tools: the path they look at, resolved by the guard when it can be. */

import { resolvePath } from "../fs/path_guard.ts";
import type { CallInspection } from "./tool.ts";

/**
 * A read of `path` (default the root): its place relative to the root with symlinks resolved, and the one
 * line the UI shows for the call (default the path as given). A path the
 * guard refuses stays as given: the run refuses it too, and says why to the model.
 */
export async function inspectRead(root: string, path = ".", summary = path): Promise<CallInspection> {
  let rel = path;
  try {
    rel = (await resolvePath(root, path)).rel || ".";
  } catch {
    // reported by the run
  }
  return { effect: "read", paths: [rel], summary };
}

/** "PATTERN in PATH", or the pattern alone for the whole project. */
export function where(pattern: string, path?: string): string {
  return path === undefined || path === "." ? pattern : `${pattern} in ${path}`;
}
