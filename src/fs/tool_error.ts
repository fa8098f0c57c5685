/**
 * The failure worded for the model, thrown by the tools and by the file system layer beneath them (it lives
 * here, in the lowest layer that throws it; src/tools/tool.ts passes it on to the tools).
 */

/** Why a call failed, in words the loop and the runaway guard can branch on. */
export type ToolErrorKind =
  | "not_found"
  | "permission"
  | "outside_root"
  | "bad_arguments"
  | "stale"
  | "timeout"
  | "refused"
  | "no_match"
  | "too_large"
  | "binary"
  | "exit_code"
  | "cancelled"
  | "denied"
  | "unknown_tool"
  | "io"
  | "internal";

/** A failure worded for the model: what went wrong and what to do instead. */
export class ToolError extends Error {
  readonly kind: ToolErrorKind;
  constructor(message: string, kind: ToolErrorKind = "refused") {
    super(message);
    this.name = "ToolError";
    this.kind = kind;
  }
}
