/**
 * The session's diagnostics service: after edit_file or write_file, the language server for the file checks
 * the text before and after the write, and the errors the write brought (or removed) go back with the
 * result. Nothing runs until a file of a language with a server is edited: then PATH is searched once (one
 * bash for every program) and that language's server starts; a file no server speaks for costs a lookup in a
 * set. One edit waits at most `waitMs` (default WAIT_MS); past it the result says the diagnostics were not
 * ready, and the server goes on in the background.
 */
import { extname, join, relative } from "../../fs/path.ts";
import type { FileDiagnostics } from "../tool.ts";
import type { LspClient } from "./lsp_client.ts";
import type { Diagnostic } from "./pull.ts";
import { compareErrors, type DiagnosticsOutcome } from "./report.ts";
import { languageId, type LspSettings, serversFor, type ServerSpec } from "./servers.ts";
import { sandboxWords } from "../mcp/server_sandbox.ts";
import { findPrograms, insideRoot, type SpawnOptions } from "./server_process.ts";
import { after } from "../../timer.ts";

/** Longest wait of one edit for its diagnostics, in milliseconds. */
export const WAIT_MS = 3000;

/** Settings of the service. */
export interface DiagnosticsOptions extends SpawnOptions {
  /** The servers (the `lsp` settings read: the user's always, the project's once it is trusted). */
  settings: LspSettings;
  /** Longest wait of one edit (default WAIT_MS; `TERN_LSP_WAIT_MS`). */
  waitMs?: number;
}

/** A server as the `/diagnostics` view shows it. */
export interface ServerView {
  name: string;
  command: string[];
  state: string;
  /** Its sandbox in words, once started. */
  runsIn?: string;
  error?: string;
  restarts: number;
  /** The last diagnostics of each file it checked, relative paths. */
  files: { path: string; diagnostics: Diagnostic[] }[];
}

/** The service a session owns: the file tools' check, the view for people, and the end of every server. */
export interface DiagnosticsService extends FileDiagnostics {
  view(): ServerView[];
  /** Why servers were passed over (a project's program before trust), for the view. */
  readonly skipped: readonly string[];
  close(): Promise<void>;
}

/** Diagnostics through language servers, for one session; `close` stops every server it started. */
export class LspDiagnostics implements DiagnosticsService {
  readonly #clients = new Map<string, LspClient>();
  /** Extensions no server speaks for here (none configured, none found, or not allowed to run). */
  readonly #none = new Set<string>();
  /** Why a server was passed over (a project's program before trust), for the view. */
  readonly skipped: string[] = [];
  #programs?: Promise<Map<string, string>>;
  #closed = false;
  readonly #closing = new AbortController();

  constructor(readonly options: DiagnosticsOptions) {}

  /**
   * Starts the server of `path` and sends it `before`, in the background: called by a write's dry run (its
   * approval may take a while), so that `after` finds the server up and the baseline known.
   */
  prepare(path: string, before: string): void {
    if (this.#closed || this.#none.has(extname(path).toLowerCase())) return;
    (async () => {
      const client = await this.#clientFor(path);
      await client?.start();
      if (client?.state === "ready") await client.check(path, languageId(path), before, this.#closing.signal);
    })().catch(() => {});
  }

  /** The errors a write brought to `path` (real path; `before` null for a new file); never throws. */
  async after(
    path: string,
    change: { before: string | null; after: string },
  ): Promise<DiagnosticsOutcome | undefined> {
    const ext = extname(path).toLowerCase();
    if (this.#closed || this.#none.has(ext)) return undefined;
    const controller = new AbortController();
    const timer = after(this.options.waitMs ?? WAIT_MS, () => controller.abort());
    try {
      return await this.#check(path, ext, change, controller.signal);
    } catch (error) {
      return { state: "not_ready", server: "lsp", why: (error as Error).message.slice(0, 200) };
    } finally {
      timer.clear();
    }
  }

  async #check(
    path: string,
    ext: string,
    change: { before: string | null; after: string },
    deadline: AbortSignal,
  ): Promise<DiagnosticsOutcome | undefined> {
    const client = await this.#clientFor(path);
    if (client === undefined) {
      this.#none.add(ext);
      return undefined;
    }
    const notReady = (): DiagnosticsOutcome => {
      const { state, error } = client;
      const why = state === "failed"
        ? `${error}; it stays down`
        : state === "starting" && client.restarts > 0
        ? "the server stopped and is restarting"
        : `no answer within ${this.options.waitMs ?? WAIT_MS} ms; the server may still be starting`;
      return { state: "not_ready", server: client.name, why };
    };
    await Promise.race([client.start(), aborted(deadline)]);
    if (client.state === "failed") {
      // Said once; the view keeps the reason.
      this.#none.add(ext);
      const why = client.restarts > 0
        ? `${client.error}; it stays down`
        : `the server could not run: ${client.error}`;
      return { state: "not_ready", server: client.name, why };
    }
    if (client.state !== "ready") return notReady();
    const id = languageId(path);
    let before: Diagnostic[] = [];
    if (change.before !== null) {
      const found = await client.check(path, id, change.before, deadline);
      if (found === undefined) return notReady();
      before = found;
    }
    const after = await client.check(path, id, change.after, deadline);
    if (after === undefined) return notReady();
    return { state: "checked", server: client.name, ...compareErrors(before, after) };
  }

  /** The client of the first server that may check `path` (started lazily); undefined when none may. */
  async #clientFor(path: string): Promise<LspClient | undefined> {
    for (const spec of serversFor(this.options.settings.servers, path)) {
      const started = this.#clients.get(spec.name);
      if (started) return started;
      if (spec.markers && !(await anyExists(this.options.root, spec.markers))) continue;
      const program = await this.#resolve(spec);
      if (program === undefined) continue;
      // The client (its JSON-RPC and process code) loads at the first file a server speaks for.
      const { LspClient } = await import("./lsp_client.ts");
      // Another edit may have started it meanwhile (no await from here on); none starts after close().
      if (this.#closed) return undefined;
      const other = this.#clients.get(spec.name);
      if (other) return other;
      const client = new LspClient(spec.name, [program, ...spec.command.slice(1)], {
        ...this.options,
        network: spec.network,
        initializationOptions: spec.initializationOptions,
      });
      this.#clients.set(spec.name, client);
      return client;
    }
    return undefined;
  }

  /** The server's program as it will run, or undefined when it is not there or may not run yet. */
  async #resolve(spec: ServerSpec): Promise<string | undefined> {
    const { root, trusted } = this.options;
    const name = spec.command[0];
    const rootPath = (p: string) => relative(root, p) || ".";
    let program: string | undefined = name;
    if (!name.includes("/")) {
      this.#programs ??= findPrograms([...new Set(this.options.settings.servers.map((s) => s.command[0]))]);
      program = (await this.#programs).get(name);
    } else if (!name.startsWith("/")) program = join(root, name);
    if (program === undefined) return undefined;
    if (!trusted && (spec.source === "project" || insideRoot(program, root))) {
      const why = `${spec.name}: ${
        rootPath(program)
      } is the project's program; it runs once you trust the project`;
      if (!this.skipped.includes(why)) this.skipped.push(why);
      return undefined;
    }
    return program;
  }

  /** The servers started so far and what they last said of each file, for the `/diagnostics` view. */
  view(): ServerView[] {
    return [...this.#clients.values()].map((client) => ({
      name: client.name,
      command: client.command,
      state: client.state,
      runsIn: client.sandbox && sandboxWords(client.sandbox),
      error: client.error,
      restarts: client.restarts,
      files: [...client.all()].map(([path, diagnostics]) => ({
        path: relative(this.options.root, path),
        diagnostics,
      })),
    }));
  }

  /** Stops every server (bounded; see LspClient.close). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    await Promise.all([...this.#clients.values()].map((client) => client.close()));
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

async function anyExists(root: string, names: string[]): Promise<boolean> {
  for (const name of names) {
    try {
      await Deno.lstat(join(root, name));
      return true;
    } catch {
      // not this one
    }
  }
  return false;
}
