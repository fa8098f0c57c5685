/**
 * tern's claim on its state folder at start: a `.tern/local/` that is not tern's own is moved aside, and state
 * files older versions kept elsewhere in `.tern/` are named once (the names said are kept, sealed).
 */
import { join } from "../../fs/path.ts";
import { openJson, sealJson, stateSeal } from "./seal.ts";
import { boundStatePath, STATE_DIR, stateDir, stateStatus, TERN_DIR } from "./tern_dir.ts";
import { existsNoFollow } from "../../fs/path_basics.ts";

/** Names tern kept its state under before it was bound; such files may have come with the repository. */
const LEGACY_STATE = ["trust.json", "mcp-trust.json", "sessions", "snapshots", "history"];

/**
 * At start: a `.tern/local/` that is not tern's own is moved aside (never read, never deleted), and state
 * files at the places older versions used are named; returns one line for the user, or undefined.
 */
export function claimState(root: string): string | undefined {
  const ignored: string[] = [];
  const status = stateStatus(root);
  if (status.kind === "unusable") return `tern keeps no state in this project: ${status.why}`;
  if (status.kind === "foreign") {
    const aside = `${TERN_DIR}/ignored-local-${new Date().toISOString().replace(/[-:.]/g, "")}`;
    try {
      Deno.renameSync(join(root, STATE_DIR), join(root, aside));
      ignored.push(`${STATE_DIR}/ (moved to ${aside}/: ${status.why})`);
    } catch {
      return `tern keeps no state in this project: ${status.why}, and it could not be moved aside`;
    }
  }
  const legacy = LEGACY_STATE.filter((name) => existsNoFollow(join(root, TERN_DIR, name)))
    .map((name) => `${TERN_DIR}/${name}`);
  const fresh = legacy.filter((name) => !reported(root).includes(name));
  if (fresh.length > 0) {
    ignored.push(...fresh);
    try {
      const file = join(stateDir(root, ""), "ignored.json");
      const seal = stateSeal(root);
      const names = [...reported(root), ...fresh];
      if (seal) Deno.writeTextFileSync(file, sealJson(seal, "ignored.json", { names }));
    } catch { /* said again next time */ }
  }
  if (ignored.length === 0) return undefined;
  return `ignored ${ignored.join(", ")}: tern reads its own state only from ${STATE_DIR}/, bound to this ` +
    "directory; files a repository brings or a copy carries grant nothing";
}

/** Legacy names already reported in this project. */
function reported(root: string): string[] {
  const file = boundStatePath(root, "ignored.json");
  const seal = stateSeal(root);
  if (file === undefined || seal === undefined) return [];
  try {
    const list = openJson(seal, "ignored.json", Deno.readTextFileSync(file))?.names;
    return Array.isArray(list) ? list.filter((item) => typeof item === "string") : [];
  } catch {
    return [];
  }
}
