/** The words and the one test every file check shares: how a path is shown, and whether it is inside. */
import { isAbsolute, relative, sep } from "./path.ts";
import { ToolError } from "./tool_error.ts";

/** Shows a model-given path in an error without flooding it (5,000 characters) or hiding control bytes. */
export function showPath(path: string): string {
  const shown = path.length > 120 ? `${path.slice(0, 60)}…(${path.length} characters)` : path;
  return JSON.stringify(shown);
}

/** True when `path` is `root` or below it; separator-aware (`/proj-evil` is not inside `/proj`). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The refusal when a path changed between its check and its use (a racing process swapped something). */
export function changedError(rel: string): ToolError {
  return new ToolError(`${showPath(rel)} changed while it was being opened: nothing was done; try again.`);
}

/** True when something (a link included, never followed) is at `path`. */
export function existsNoFollow(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
