/** The sandbox's state in the CLI's words, which name its flags. */

import type { SandboxStatus } from "../../tools/shell/sandbox.ts";

/** The banner's line for the sandbox (headless prints it on stderr when commands cannot be confined). */
export function sandboxLine(status: SandboxStatus): string {
  switch (status.kind) {
    case "bubblewrap":
      return "sandbox: bubblewrap (no network, writes only in the project)";
    case "off":
      return "sandbox: off — commands run unconfined and always ask";
    case "refused":
      return `sandbox: required, but ${status.reason} — commands are refused (install the Debian package ` +
        "bubblewrap, or use --sandbox auto|off)";
    case "unavailable":
      return `sandbox: unavailable (${status.reason}) — commands run unconfined and always ask`;
  }
}
