/**
 * tern's own state authenticates itself. Binding `.tern/local/` to this directory (tern_dir.ts) stops a
 * clone or a copy from bringing state, but not a later `git pull`, checkout, merge, stash or unpacked archive,
 * which write files into the bound folder (git overwrites ignored files without asking). So every file tern
 * reads back from there carries a seal: an HMAC-SHA256 (cut to 128 bits) keyed by a random secret made on
 * this machine, kept in `.tern/local/key.json` beside the owner record and bound the same way (it names the
 * device, inode and birth time of the root and of the folder, which no repository can know). A file whose
 * seal does not check was not written by tern here: it grants nothing and is moved aside
 * (`.tern/local/aside/`), never deleted. The HMAC is computed synchronously (a session line is sealed in
 * the same synchronous append that writes it), by RFC 2104 from two SHA-256 calls (sha256.ts): the key is
 * the secret's 64 hex characters, one block, so both padded keys are ASCII text and the inner hash takes one
 * string. Deno's `createHmac` gives the same digest (a test checks) at 3 to 10 times the cost per line.
 */
import { hex, sha256 } from "./sha256.ts";
import { join } from "../../fs/path.ts";
import { boundIdentity, namesIdentity, STATE_DIR, stateDir, stateStatus } from "./tern_dir.ts";

/** The key's file in the state folder. */
export const KEY_FILE = "key.json";
/** Hex digits of a seal: 128 bits of HMAC-SHA256, as many as a forger must guess. */
const SEAL_HEX = 32;
const SEAL_PATTERN = /^[0-9a-f]{32}$/;
/** The tail a sealed JSON line ends with: `,"seal":"<32 hex>"}`. */
const LINE_TAIL = SEAL_HEX + 11;

/** The key of one project's state: seals and checks texts. */
export class StateSeal {
  /** The key's block XOR 0x36 (RFC 2104's inner pad), as text: every character is ASCII. */
  readonly #inner: string;
  /** The outer hash's input: the key's block XOR 0x5c, then room for the inner digest. */
  readonly #outer = new Uint8Array(96);

  /** A seal keyed by the 32 bytes of `secret` (the HMAC key is their 64 lower-case hex digits). */
  constructor(secret: Uint8Array) {
    const key = Array.from(secret.subarray(0, 32), (byte) => byte.toString(16).padStart(2, "0")).join("")
      .padEnd(64, "0");
    this.#inner = Array.from(key, (c) => String.fromCharCode(c.charCodeAt(0) ^ 0x36)).join("");
    this.#outer.set(Array.from(key, (c) => c.charCodeAt(0) ^ 0x5c));
  }

  /** The seal of `text` as the file or line `label` names (e.g. "trust.json", "session:ID"). */
  mac(label: string, text: string): string {
    const outer = this.#outer.slice();
    outer.set(sha256(`${this.#inner}${label}\0${text}`), 64);
    return hex(sha256(outer)).slice(0, SEAL_HEX);
  }

  /** Whether `seal` is the seal of `text` under `label` (compared in constant time). */
  check(seal: unknown, label: string, text: string): boolean {
    if (typeof seal !== "string" || !SEAL_PATTERN.test(seal)) return false;
    return sameInConstantTime(seal, this.mac(label, text));
  }
}

/** What `claimKey` found: the seal, and a line when a key file that was not tern's had to be moved aside. */
export interface ClaimedKey {
  seal?: StateSeal;
  note?: string;
}

/**
 * The seal of the state folder of `root`, its key made on first use; nothing when the folder is not
 * tern's own. A key file naming another directory (planted, or copied) is moved aside and said: every
 * file sealed by it then fails too, which is the point.
 */
export function claimKey(root: string): ClaimedKey {
  const status = stateStatus(root);
  const facts = boundIdentity(root);
  if (status.kind !== "bound" || facts === undefined) return {};
  const file = join(status.dir, KEY_FILE);
  let found = readKey(file, facts);
  let note: string | undefined;
  if (found === "foreign") {
    const moved = moveAside(root, KEY_FILE);
    note = `moved ${STATE_DIR}/${KEY_FILE} to ${moved ?? "nowhere (it could not be moved)"}: it was not ` +
      "made by tern in this directory, so nothing it sealed is used";
    if (moved === undefined) return { note };
    found = undefined;
  }
  found ??= makeKey(file, facts);
  return { seal: found instanceof Uint8Array ? new StateSeal(found) : undefined, ...(note && { note }) };
}

/** `claimKey(root).seal`: the seal of tern's own state in `root`, or undefined (no bound folder). */
export function stateSeal(root: string): StateSeal | undefined {
  return claimKey(root).seal;
}

type Facts = NonNullable<ReturnType<typeof boundIdentity>>;

function readKey(file: string, facts: Facts): Uint8Array | "foreign" | undefined {
  let text: string;
  try {
    const info = Deno.lstatSync(file);
    if (!info.isFile || info.size > 4096) return "foreign";
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    return "foreign";
  }
  try {
    const record = JSON.parse(text);
    if (!namesIdentity(record, facts) || !/^[0-9a-f]{64}$/.test(record.secret)) return "foreign";
    return Uint8Array.from((record.secret as string).match(/../g)!, (pair) => parseInt(pair, 16));
  } catch {
    return "foreign";
  }
}

/**
 * Writes a new key under a temporary name and links it into place: a link fails when the name exists, so
 * when two terns start at once the first key wins whole and the other reads it.
 */
function makeKey(file: string, facts: Facts): Uint8Array | undefined {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const hex = Array.from(secret, (byte) => byte.toString(16).padStart(2, "0")).join("");
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    Deno.writeTextFileSync(temp, JSON.stringify({ version: 1, ...facts, secret: hex }) + "\n", {
      mode: 0o600,
    });
    Deno.linkSync(temp, file);
    return secret;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) return undefined;
    const other = readKey(file, facts);
    return other instanceof Uint8Array ? other : undefined;
  } finally {
    try {
      Deno.removeSync(temp);
    } catch { /* never made */ }
  }
}

/** A whole state file (JSON): `data` with its seal as the last member, pretty-printed. */
export function sealJson(seal: StateSeal, label: string, data: Record<string, unknown>): string {
  return JSON.stringify({ ...data, seal: seal.mac(label, JSON.stringify(data)) }, null, 2) + "\n";
}

/**
 * Writes `data` sealed as `name` to `dir`/`name` through a temp file and a rename, so a reader sees the old
 * file or the new, never half of one; throws when it cannot (the temp file is not left behind).
 */
export function writeSealedFile(
  seal: StateSeal,
  dir: string,
  name: string,
  data: Record<string, unknown>,
): void {
  replaceStateFile(dir, name, sealJson(seal, name, data));
}

/** `text` as the whole of `dir`/`name`, through a temp file renamed over it: a crash leaves the old or the new. */
export function replaceStateFile(dir: string, name: string, text: string): void {
  const temp = join(dir, `${name}.${crypto.randomUUID()}.tmp`);
  try {
    Deno.writeTextFileSync(temp, text);
    Deno.renameSync(temp, join(dir, name));
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch { /* never made */ }
    throw error;
  }
}

/** The data of the sealed JSON state file `dir`/`name` (sealed as its name); undefined when missing or not sealed. */
export function readSealedFile(
  seal: StateSeal,
  dir: string,
  name: string,
): Record<string, unknown> | undefined {
  const file = join(dir, name);
  try {
    // Only a regular file is read: a FIFO planted at the name (an archive can hold one) would block.
    return Deno.lstatSync(file).isFile ? openJson(seal, name, Deno.readTextFileSync(file)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The data of a sealed JSON state file, its seal taken off; undefined when it is not JSON or the seal does
 * not check. The seal covers the members as parsed (re-serialised), so whitespace may change, nothing else.
 */
export function openJson(seal: StateSeal, label: string, text: string): Record<string, unknown> | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const { seal: mac, ...rest } = data as Record<string, unknown>;
  return seal.check(mac, label, JSON.stringify(rest)) ? rest : undefined;
}

/** A line holding a non-empty JSON object (`body`, e.g. `{"type":"entry",…}`) with its seal as a last member. */
export function sealLine(seal: StateSeal, label: string, body: string): string {
  return `${body.slice(0, -1)},"seal":"${seal.mac(label, body)}"}`;
}

/**
 * The body of a line `sealLine` wrote, when its seal checks; undefined otherwise. No parse is needed: the
 * seal sits at a fixed place at the end.
 */
export function openLine(seal: StateSeal, label: string, line: string): string | undefined {
  const start = line.length - LINE_TAIL;
  if (start < 2 || !line.startsWith(',"seal":"', start) || !line.endsWith('"}')) return undefined;
  const body = `${line.slice(0, start)}}`;
  return seal.check(line.slice(start + 9, -2), label, body) ? body : undefined;
}

/**
 * Moves `.tern/local/<rel>` into `.tern/local/aside/` (made inside the bound folder, so a planted link
 * cannot lead the rename elsewhere); returns where it went, relative to the root, or undefined.
 */
export function moveAside(root: string, rel: string): string | undefined {
  try {
    const aside = stateDir(root, "aside");
    const stamp = new Date().toISOString().replace(/[-:.]/g, "");
    const name = `${stamp}-${rel.replaceAll("/", "-")}`;
    Deno.renameSync(join(root, STATE_DIR, rel), join(aside, name));
    return `${STATE_DIR}/aside/${name}`;
  } catch {
    return undefined;
  }
}

/** Whether two seals (ASCII, of one length) are equal, in a time that does not depend on where they differ. */
function sameInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differ = 0;
  for (let i = 0; i < a.length; i++) differ |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return differ === 0;
}
