/**
 * What the trust decision allows, applied once at the door and handed out from there: the hooks that run, the
 * agents offered, the permission rules in force. No front end re-reads or re-decides any of it.
 */
import type { HookConfig } from "../../config/hook_settings.ts";
import type { PermissionSettings } from "../../config/project_settings.ts";
import type { SandboxStatus } from "../../tools/shell/sandbox.ts";
import { type FoundAgents, PROJECT_AGENT_DIRS } from "./agents.ts";
import type { ProjectTrust } from "../policy/project_trust.ts";
import type { ProjectFiles } from "./project_files.ts";

/** The hooks of the run, and why any that were found do not run (for /hooks and stderr). */
export interface RunHooks {
  hooks: HookConfig[];
  notes: string[];
}

/**
 * The hooks of this run: the user's own (`.tern/local/settings.json`, run with the user's permissions), and
 * the project's once it is trusted, which run only inside the sandbox: where bubblewrap cannot confine them,
 * they are left out and said.
 */
export async function runHooks(
  files: ProjectFiles,
  trust: ProjectTrust,
  probing: Promise<SandboxStatus>,
): Promise<RunHooks> {
  const own = files.ownSettings?.hooks ?? [];
  const supplied = files.settings.hooks;
  if (supplied.length === 0) return { hooks: own, notes: [] };
  const count = `${supplied.length} hook${supplied.length === 1 ? "" : "s"} of the project's settings`;
  const untrusted = "the project is not trusted (pass --trust-project, or answer the REPL's trust question)";
  if (!trust.project) return { hooks: own, notes: [`the ${count} do not run: ${untrusted}`] };
  const sandbox = await probing;
  if (sandbox.active) return { hooks: [...own, ...supplied], notes: [] };
  const why = sandbox.kind === "off" ? "--sandbox off" : sandbox.reason;
  return {
    hooks: own,
    notes: [`the ${count} do not run: a project's hooks run only in the sandbox (${why})`],
  };
}

/** Whether an agent came from the project's own folders (not the user's). */
export function fromProject(source: string): boolean {
  return PROJECT_AGENT_DIRS.some((dir) => source.startsWith(`${dir}/`));
}

/** The named agents this run offers: the user's always, the project's only once the project is trusted. */
export function trustedAgents(found: FoundAgents, trust: ProjectTrust): FoundAgents {
  if (trust.project) return found;
  const agents = found.agents.filter((agent) => !fromProject(agent.source));
  return { ...found, agents };
}

/** The rules of this run: every deny rule; the project's allow rules only when it is trusted; the user's own. */
export function runRules(files: ProjectFiles, trust: ProjectTrust): PermissionSettings {
  const own = files.ownSettings?.permissions ?? { allow: [], deny: [] };
  const supplied = files.settings.permissions;
  return {
    deny: [...supplied.deny, ...own.deny],
    allow: [...(trust.project ? supplied.allow : []), ...own.allow],
    ask: [...supplied.ask ?? [], ...own.ask ?? []], // ask rules only tighten: no trust needed
  };
}
