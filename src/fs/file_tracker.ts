/** The conversation's memory of the files the model has seen, and the stale-write guard built on it. */

import { MAX_FILE_BYTES, prependBom, type TextFile } from "./path_guard.ts";
import { openNoBlock } from "./opened_file.ts";
import { ToolError } from "./tool_error.ts";

/** A file's state as the model last saw it (after read_file, or after tern's own write). */
export interface FileSnapshot {
  mtimeMs: number;
  size: number;
  /** SHA-256 of the bytes, hex. */
  hash: string;
}

/** Per-conversation memory of what the model has read, keyed by real path. */
export interface FileTracker {
  record(realPath: string, snapshot: FileSnapshot): void;
  get(realPath: string): FileSnapshot | undefined;
  /** Every remembered snapshot (a session saves them, so a resumed conversation keeps its guard). */
  entries(): [string, FileSnapshot][];
}

/** An in-memory FileTracker, one per conversation; keys are real paths. */
export function createFileTracker(): FileTracker {
  const seen = new Map<string, FileSnapshot>();
  return {
    record: (realPath, snapshot) => void seen.set(realPath, snapshot),
    get: (realPath) => seen.get(realPath),
    entries: () => [...seen.entries()],
  };
}

/** The snapshot of `bytes` as read or written: `info`'s mtime, the byte count, and SHA-256 in hex. */
export async function snapshotOf(
  bytes: Uint8Array,
  info: Pick<Deno.FileInfo, "mtime">,
): Promise<FileSnapshot> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  const hash = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return { mtimeMs: info.mtime?.getTime() ?? 0, size: bytes.length, hash };
}

/** The snapshot of a file read through the guard; strict UTF-8 round-trips, so these are its exact bytes. */
export function snapshotOfText(file: TextFile): Promise<FileSnapshot> {
  const body = new TextEncoder().encode(file.text);
  return snapshotOf(file.bom ? prependBom(body) : body, file.info);
}

/**
 * The snapshot of the regular file at `real` (a real path inside the root) as it is now, from its raw bytes:
 * hashing needs no decoding, so this works for files read_file refuses to show (`.env`). Null when it is
 * no longer a regular file within the size limit, which no snapshot matches.
 */
export async function snapshotOfPath(real: string): Promise<FileSnapshot | null> {
  const info = await Deno.lstat(real);
  if (!info.isFile || info.size > MAX_FILE_BYTES) return null;
  await using file = await openNoBlock(real);
  const opened = file.info;
  if (!opened.isFile || opened.dev !== info.dev || opened.ino !== info.ino) return null;
  // One spare byte tells a file that grew since the lstat: it is changing under us, so it is not as seen.
  const buffer = new Uint8Array(info.size + 1);
  let total = 0;
  while (total < buffer.length) {
    const read = await file.read(buffer.subarray(total));
    if (read === null) break;
    total += read;
  }
  return total > info.size ? null : await snapshotOf(buffer.subarray(0, total), info);
}

/** Records what tern itself just wrote to `real`, so the next edit needs no fresh read. */
export async function recordWrite(
  files: FileTracker | undefined,
  real: string,
  data: Uint8Array,
): Promise<void> {
  if (files === undefined) return;
  files.record(real, await snapshotOf(data, await Deno.lstat(real)));
}

/** What the change is called in refusals. */
export type Change = "edit" | "overwrite";

/**
 * Refuses a change to an existing file the model never read in this conversation, or one whose bytes
 * changed since it last saw them. The hash decides: a `touch` or a rewrite with identical bytes moves the
 * mtime but leaves the model's view exact, so it is no reason to refuse. No tracker, no guard.
 */
export async function guardFresh(
  files: FileTracker | undefined,
  target: { real: string; rel: string },
  current: () => Promise<FileSnapshot | null>,
  change: Change,
): Promise<void> {
  if (files === undefined) return;
  const seen = files.get(target.real);
  if (seen === undefined) {
    const how = change === "edit" ? "then edit it" : "then write it (to change part of it, use edit_file)";
    throw new ToolError(
      `${target.rel} ${change === "edit" ? "has" : "already exists and has"} not been read in this ` +
        `conversation: read it first with read_file, ${how}.`,
      "stale",
    );
  }
  const now = await current();
  if (now === null || now.size !== seen.size || now.hash !== seen.hash) {
    throw new ToolError(
      `${target.rel} changed since you read it; read it again with read_file, then ${change} it ` +
        `(your copy of it is out of date).`,
      "stale",
    );
  }
}
