/**
 * What the door does for sandboxed commands shared with other tern processes in the same project: claims
 * kept in tern's state folder (tools/shell/sandbox_claims.ts), and what a tern that died mid-command left
 * undone first (sandbox_sweep.ts), said in one line.
 */
import { stateDir } from "../state/tern_dir.ts";
import { useSandboxClaims } from "../../tools/shell/sandbox_claims.ts";
import { sweepSandboxLeftovers } from "../../tools/shell/sandbox_sweep.ts";

/** Turns cross-process claims on for `root` and undoes what gone tern processes left there. */
export async function sandboxAcrossProcesses(root: string, warn: (line: string) => void): Promise<void> {
  // Made when missing: without a shared folder, two terns could not see each other's placeholders.
  useSandboxClaims((dir) => stateDir(dir, "sandbox"));
  // Its claim file stays at exit (exit hooks run side by side with the end of background commands): the
  // next tern to look finds it gone and removes it.
  const swept = await sweepSandboxLeftovers(root);
  if (swept !== undefined) warn(swept);
}
