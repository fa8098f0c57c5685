/**
 * One language server of the session: started on first use, its documents kept in step with what the file
 * tools wrote (full-text sync), its `publishDiagnostics` kept per document, restarted once if it dies, shut
 * down (`shutdown`, `exit`, then a kill) at the end. Every wait has a deadline: a slow or hung server costs an
 * edit at most that long.
 */
import { basename } from "../../fs/path.ts";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RpcConnection } from "./jsonrpc.ts";
import { type SpawnOptions, spawnServer } from "./server_process.ts";
import type { ServerSandbox } from "../mcp/server_sandbox.ts";
import { checkedDiagnostic, type Diagnostic, pullDiagnostics, type PullKind } from "./pull.ts";

/** Where a server is in its life. */
export type ClientState = "starting" | "ready" | "failed" | "closed";

const STDERR_KEPT = 2000;
/** Longest wait for a server to stop at the end before it is killed. */
const SHUTDOWN_MS = 1000;

type Published = { version?: number; diagnostics: Diagnostic[] };
type Doc = {
  version: number;
  text: string;
  published?: Published;
  /** The question in flight for a version (a dry run's and the write's checks ask once). */
  asking?: { version: number; answer: Promise<Diagnostic[]> };
};

/** A server: `sync` a document, then `diagnosticsOf` it until a deadline. */
export class LspClient {
  state: ClientState = "starting";
  error?: string;
  sandbox?: ServerSandbox;
  restarts = 0;
  #rpc?: RpcConnection;
  #child?: Deno.ChildProcess;
  #ready?: Promise<void>;
  #docs = new Map<string, Doc>();
  #waiters = new Set<() => void>();
  #stderr = "";
  #pull: PullKind = "push";

  constructor(
    readonly name: string,
    readonly command: string[],
    readonly options: SpawnOptions & { network?: boolean; initializationOptions?: unknown },
  ) {}

  /** Starts the server (once; again once after it died); resolves when it answered `initialize`. */
  start(): Promise<void> {
    this.#ready ??= this.#start();
    return this.#ready;
  }

  async #start(): Promise<void> {
    try {
      const { child, sandbox } = await spawnServer(this.command, this.options.network === true, this.options);
      this.#child = child;
      this.sandbox = sandbox;
      this.#drain(child.stderr);
      // Closed while the program was being started: it must not outlive tern.
      if (this.state === "closed") return void (await this.close());
      this.#rpc = new RpcConnection(child.stdout, child.stdin, {
        onNotification: (method, params) => this.#onNotification(method, params),
        onRequest: (method, params) => answer(method, params),
      });
      this.#rpc.done.then(() => this.#died());
      const root = pathToFileURL(this.options.root).href;
      const initialized = await this.#rpc.request("initialize", {
        // In bubblewrap's PID namespace tern's pid names no process: a server watching it would quit at once.
        processId: sandbox.kind === "none" ? Deno.pid : null,
        rootUri: root,
        workspaceFolders: [{ uri: root, name: "root" }],
        initializationOptions: this.options.initializationOptions,
        capabilities: {
          textDocument: { publishDiagnostics: { versionSupport: true }, synchronization: {} },
          workspace: { configuration: true, workspaceFolders: true },
        },
      });
      this.#rpc.notify("initialized", {});
      const offered = (initialized as { capabilities?: { diagnosticProvider?: unknown } })?.capabilities;
      this.#pull = basename(this.command[0]) === "typescript-language-server"
        ? "tsserver"
        : offered?.diagnosticProvider
        ? "standard"
        : "push";
      if (this.state === "starting") this.state = "ready";
    } catch (error) {
      this.#fail((error as Error).message);
    }
  }

  /** Opens the document with `text`, or sends `text` as its change; returns the version to wait for. */
  sync(path: string, languageId: string, text: string): number | undefined {
    if (this.state !== "ready" || this.#rpc === undefined) return undefined;
    const uri = pathToFileURL(path).href;
    const doc = this.#docs.get(uri);
    if (doc?.text === text) return doc.version;
    if (doc === undefined) {
      this.#docs.set(uri, { version: 1, text });
      this.#rpc.notify("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
      return 1;
    }
    doc.version++;
    doc.text = text;
    this.#rpc.notify("textDocument/didChange", {
      textDocument: { uri, version: doc.version },
      contentChanges: [{ text }],
    });
    return doc.version;
  }

  /**
   * `text` sent as the document's content, and its diagnostics: asked for where the server can be asked,
   * else awaited as the server pushes them. Undefined when they did not come before `deadline` fired.
   */
  async check(
    path: string,
    languageId: string,
    text: string,
    deadline: AbortSignal,
  ): Promise<Diagnostic[] | undefined> {
    const version = this.sync(path, languageId, text);
    if (version === undefined) return undefined;
    if (this.#pull === "push") return await this.diagnosticsOf(path, version, deadline);
    const uri = pathToFileURL(path).href;
    const doc = this.#docs.get(uri)!;
    if (doc.published?.version === version) return doc.published.diagnostics;
    if (doc.asking?.version !== version) {
      const answer = pullDiagnostics(this.#rpc!, this.#pull, path, uri).then((found) => {
        if (doc.version === version) doc.published = { version, diagnostics: found };
        return found;
      });
      doc.asking = { version, answer };
    }
    const asked = doc.asking.answer;
    asked.catch(() => {});
    return await Promise.race([asked, ended(deadline)]).catch(() => undefined);
  }

  /** The last diagnostics of `path` (whatever version), for the view. */
  latest(path: string): Diagnostic[] | undefined {
    return this.#docs.get(pathToFileURL(path).href)?.published?.diagnostics;
  }

  /** Every document's last diagnostics, by path. */
  all(): Map<string, Diagnostic[]> {
    const found = new Map<string, Diagnostic[]>();
    for (const [uri, doc] of this.#docs) {
      if (doc.published) found.set(fileURLToPath(uri), doc.published.diagnostics);
    }
    return found;
  }

  /** The diagnostics of `path` at `version`; undefined when they did not come before `deadline` fired. */
  async diagnosticsOf(
    path: string,
    version: number,
    deadline: AbortSignal,
  ): Promise<Diagnostic[] | undefined> {
    const uri = pathToFileURL(path).href;
    const current = () => {
      const doc = this.#docs.get(uri);
      return doc?.version === version && doc.published?.version === version
        ? doc.published.diagnostics
        : undefined;
    };
    while (!deadline.aborted && this.state === "ready") {
      const found = current();
      if (found) return found;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          deadline.removeEventListener("abort", wake);
          resolve();
        };
        this.#waiters.add(wake);
        deadline.addEventListener("abort", wake, { once: true });
      });
    }
    return current();
  }

  #onNotification(method: string, params: unknown): void {
    // A server that is asked is not listened to: its pushes may speak of an older text than the last sent.
    if (method !== "textDocument/publishDiagnostics" || this.#pull !== "push") return;
    const { uri, version, diagnostics } = (params ?? {}) as Record<string, unknown>;
    const doc = typeof uri === "string" ? this.#docs.get(uri) : undefined;
    if (doc === undefined || !Array.isArray(diagnostics)) return;
    // A server that does not say the version speaks of the text it has now: the last one sent.
    const at = typeof version === "number" ? version : doc.version;
    doc.published = { version: at, diagnostics: diagnostics.slice(0, 1000).flatMap(checkedDiagnostic) };
    for (const wake of [...this.#waiters]) wake();
  }

  #drain(stderr: ReadableStream<Uint8Array>): void {
    const decoder = new TextDecoder();
    (async () => {
      for await (const chunk of stderr) {
        this.#stderr = (this.#stderr + decoder.decode(chunk, { stream: true })).slice(-STDERR_KEPT);
      }
    })().catch(() => {});
  }

  /** The server's output ended: restarted once (its documents reopened at the next sync), else failed. */
  #died(): void {
    if (this.state === "closed" || this.state === "failed") return;
    const said = this.#stderr.trim().split("\n").at(-1)?.slice(0, 200);
    const why = `the server stopped${said ? ` (it said: ${said})` : ""}`;
    this.#kill();
    if (this.state === "ready" && this.restarts === 0) {
      this.restarts++;
      this.error = `restarted once: ${why}`;
      this.state = "starting";
      this.#docs.clear();
      this.#ready = this.#start();
    } else this.#fail(why);
    for (const wake of [...this.#waiters]) wake();
  }

  #fail(message: string): void {
    if (this.state === "closed") return;
    this.state = "failed";
    // deno-lint-ignore no-control-regex -- matching control characters is the point
    this.error = message.replace(/[\x00-\x1f\x7f]+/g, " ").slice(0, 300);
    this.#kill();
  }

  #kill(): void {
    try {
      this.#child?.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  /** Asks the server to stop, then kills it; bounded by SHUTDOWN_MS. */
  async close(): Promise<void> {
    const wasReady = this.state === "ready";
    this.state = "closed";
    for (const wake of [...this.#waiters]) wake();
    if (this.#child === undefined) return;
    if (wasReady && this.#rpc) {
      const rpc = this.#rpc;
      const child = this.#child;
      await within(SHUTDOWN_MS, async () => {
        await rpc.request("shutdown", null);
        rpc.notify("exit", null);
        await child.status;
      });
    }
    this.#kill();
    await this.#child.status.catch(() => {});
  }
}

/** The server's own requests: configuration sections are left to its defaults, the rest acknowledged. */
function answer(method: string, params: unknown): unknown {
  if (method === "workspace/configuration") {
    const items = (params as { items?: unknown[] })?.items;
    return Array.isArray(items) ? items.map(() => null) : [];
  }
  return null;
}

/** Resolves undefined when `signal` fires. */
function ended(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    signal.addEventListener("abort", () => resolve(undefined), { once: true });
  });
}

/** Runs `job` for at most `ms` milliseconds (its failure ignored); the timer never outlives it. */
async function within(ms: number, job: () => Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([job().catch(() => {}), limit]);
  } finally {
    clearTimeout(timer);
  }
}
