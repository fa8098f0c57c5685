/**
 * What the CLI does once per process for sandboxed commands shared with other tern processes in the same
 * project: claims kept in tern's state folder (tools/shell/sandbox_claims.ts), and what a tern that died mid-command
 * left undone first (sandbox_sweep.ts), said in one line on stderr.
 */
import { stateDir } from "../agent/tern_dir.ts";
import { terminalSafe } from "./render/terminal_safe.ts";
import { useSandboxClaims } from "../tools/shell/sandbox_claims.ts";
import { sweepSandboxLeftovers } from "../tools/shell/sandbox_sweep.ts";

/** Turns cross-process claims on for `root` and undoes what gone tern processes left there. */
export async function sandboxAcrossProcesses(root: string): Promise<void> {
  // Made when missing: without a shared folder, two terns could not see each other's placeholders.
  useSandboxClaims((dir) => stateDir(dir, "sandbox"));
  // Its claim file stays at exit (exit hooks run side by side with the end of background commands): the
  // next tern to look finds it gone and removes it.
  const swept = await sweepSandboxLeftovers(root);
  if (swept !== undefined) console.error(terminalSafe(swept));
}
