/**
 * The seal of the undo repository (`.tern/local/snapshots/git`). git reads its own folder's config,
 * attributes, excludes, `commondir` and object alternates, any of which could make it run a filter or read
 * another repository, so a shadow repository a `git pull` or archive wrote must never be used. tern seals
 * what decides git's behaviour: the names at the top of the git folder and in `info/` and `objects/info/`,
 * and the bytes of each file there, `config` and `HEAD`. Objects are named by their hash and the index is
 * rebuilt from the work tree at every snapshot, so neither needs the seal.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { openJson, sealJson, stateSeal } from "./state_seal.ts";
import { boundStatePath } from "./tern_dir.ts";

const LABEL = "snapshots";
const SEAL_FILE = "seal.json";
/** Entries git itself changes in the course of a snapshot: not part of what decides its behaviour. */
const CHANGING = new Set(["index", "index.lock"]);

/** One line per entry of `dir`: kind and name, and a file's bytes' hash; sorted. */
function listing(dir: string, contents: boolean): string[] {
  const lines: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (CHANGING.has(entry.name)) continue;
      const kind = entry.isSymlink ? "l" : entry.isDirectory ? "d" : entry.isFile ? "f" : "?";
      const hash = contents && entry.isFile
        ? createHash("sha256").update(Deno.readFileSync(join(dir, entry.name))).digest("hex")
        : "";
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
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** Whether the shadow repository of `root` is the one tern made here; true when there is none yet. */
export function snapshotsSealed(root: string): boolean {
  const dir = boundStatePath(root, "snapshots");
  if (dir === undefined) return true;
  const seal = stateSeal(root);
  let text: string;
  try {
    if (Deno.readDirSync(dir).next().done) return true; // an empty folder: nothing to read
    text = Deno.readTextFileSync(join(dir, SEAL_FILE));
  } catch {
    return false;
  }
  const data = seal && openJson(seal, LABEL, text);
  return data !== undefined && data.manifest === manifest(join(dir, "git"));
}

/** Seals the shadow repository of `root` as it is now (after tern made and configured it). */
export function sealSnapshots(root: string): void {
  const dir = boundStatePath(root, "snapshots");
  const seal = stateSeal(root);
  if (dir === undefined || seal === undefined) throw new Error("tern's state folder has no key");
  const temp = join(dir, `${SEAL_FILE}.${crypto.randomUUID()}.tmp`);
  Deno.writeTextFileSync(temp, sealJson(seal, LABEL, { manifest: manifest(join(dir, "git")) }));
  Deno.renameSync(temp, join(dir, SEAL_FILE));
}
