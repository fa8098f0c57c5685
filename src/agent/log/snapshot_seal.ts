/**
 * The seal of the undo repository (`.tern/local/snapshots/git`). git reads its own folder's config,
 * attributes, excludes, `commondir` and object alternates, any of which could make it run a filter or read
 * another repository, so a shadow repository a `git pull` or archive wrote must never be used. tern seals
 * what decides git's behaviour: the names at the top of the git folder and in `info/` and `objects/info/`,
 * and the bytes of each file there, `config` and `HEAD`. Objects are named by their hash and the index is
 * rebuilt from the work tree at every snapshot, so neither needs the seal. The seal is kept inside the git
 * folder (`tern-seal.json`, which git never reads), so the folder is made whole and published by one rename.
 */
import { hex, sha256 } from "../state/sha256.ts";
import { join } from "../../fs/path.ts";
import { openJson, sealJson, stateSeal } from "../state/seal.ts";
import { boundStatePath } from "../state/tern_dir.ts";

const LABEL = "snapshots";
const SEAL_FILE = "tern-seal.json";
/** Entries git itself changes in a snapshot, and the seal: not part of what decides git's behaviour. */
const CHANGING = new Set(["index", "index.lock", SEAL_FILE]);

/** One line per entry of `dir`: kind and name, and a file's bytes' hash; sorted. */
function listing(dir: string, contents: boolean): string[] {
  const lines: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (CHANGING.has(entry.name)) continue;
      const kind = entry.isSymlink ? "l" : entry.isDirectory ? "d" : entry.isFile ? "f" : "?";
      const hash = contents && entry.isFile ? hex(sha256(Deno.readFileSync(join(dir, entry.name)))) : "";
      lines.push(`${kind} ${JSON.stringify(entry.name)} ${hash}`);
    }
  } catch {
    lines.push("missing");
  }
  return lines.sort();
}

/** The digest of what decides how git behaves in `gitDir`. */
function manifest(gitDir: string): string {
  const parts = [
    ["", listing(gitDir, true)],
    ["info", listing(join(gitDir, "info"), true)],
    ["objects/info", listing(join(gitDir, "objects", "info"), true)],
  ];
  return hex(sha256(JSON.stringify(parts)));
}

/**
 * Whether the shadow repository of `root` (`snapshots/git`, the only folder git is pointed at) is the one
 * tern made here; true when there is none yet.
 */
export function snapshotsSealed(root: string): boolean {
  const gitDir = boundStatePath(root, "snapshots/git");
  if (gitDir === undefined) return true;
  const seal = stateSeal(root);
  let text: string;
  try {
    text = Deno.readTextFileSync(join(gitDir, SEAL_FILE));
  } catch {
    return false;
  }
  const data = seal && openJson(seal, LABEL, text);
  return data !== undefined && data.manifest === manifest(gitDir);
}

/** Seals the shadow repository being made at `gitDir` for `root`, as it is now (made and configured). */
export function sealSnapshots(root: string, gitDir: string): void {
  const seal = stateSeal(root);
  if (seal === undefined) throw new Error("tern's state folder has no key");
  Deno.writeTextFileSync(join(gitDir, SEAL_FILE), sealJson(seal, LABEL, { manifest: manifest(gitDir) }));
}
