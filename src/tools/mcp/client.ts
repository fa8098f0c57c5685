/**
 * The MCP servers of one tern process, through the official SDK (it works under tern's narrowed flags: stdio
 * servers are spawned as `bash` or `bwrap`, HTTP goes through fetch). Servers start in parallel and nobody
 * has to wait for them (`ready` waits at most a limit); a stdio server's sandbox follows its trust
 * (server_sandbox.ts). A crashed or hung server turns into error results, never a hung tern.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig, StdioServerConfig } from "./config.ts";
import { childEnv } from "../shell/child_env.ts";
import { bwrapArgs, detectBubblewrap, type SandboxDetector } from "../shell/sandbox.ts";
import type { SandboxMode } from "../../config/settings.ts";
import { SANDBOX_PROTECTED } from "../../config/protected_paths.ts";
import { type ServerSandbox, serverSandbox, startHint } from "./server_sandbox.ts";
import { npmPackage } from "../../npm.ts";
import { CappedReadBuffer, type MessageReader } from "./capped_read_buffer.ts";

const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
  npmPackage("@modelcontextprotocol/sdk/client/index.js"),
  npmPackage("@modelcontextprotocol/sdk/client/stdio.js"),
  npmPackage("@modelcontextprotocol/sdk/client/streamableHttp.js"),
]);

/** Where a server is in its life. */
export type ServerState = "starting" | "ready" | "failed" | "closed";

/** A tool a server offers, as it listed it (untrusted: the adapter checks and caps every field). */
export interface RemoteTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; title?: string };
}

/** A content block of a tool's result, as the server sent it. */
export interface RemoteContent {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  resource?: { uri?: string; mimeType?: string; text?: string };
}

/** One server and what tern knows of it. */
export interface McpServer {
  readonly config: McpServerConfig;
  readonly state: ServerState;
  /** Why it failed or what it printed last on stderr, one line, bounded. */
  readonly error?: string;
  /** Its tools once ready (empty before). */
  readonly tools: RemoteTool[];
  /** True when a stdio server runs inside bubblewrap. */
  readonly sandboxed: boolean;
  /** Where a stdio server runs (known once it was started; undefined for HTTP servers). */
  readonly sandbox?: ServerSandbox;
  /** The server comes from the user (their own settings, or a project they trusted). */
  readonly trusted: boolean;
  /** Calls a tool; rejects when the server is gone, the call times out or `signal` fires. */
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{
    content: RemoteContent[];
    isError?: boolean;
  }>;
}

/** How servers are started. */
export interface HubOptions {
  root: string;
  /** tern's sandbox mode: stdio servers are confined unless their entry or the mode opts out. */
  sandbox: SandboxMode;
  /**
   * The servers come from the user (their own settings, or a project they trusted): they run with the
   * user's HOME and the network inside the project-write sandbox. Otherwise the strict sandbox.
   */
  trusted?: boolean;
  /** Longest wait for one tool call, in milliseconds (default two minutes). */
  callTimeoutMs?: number;
  /** How bubblewrap is detected (tests). */
  detect?: SandboxDetector;
}

const STDERR_KEPT = 2000;

class Server implements McpServer {
  state: ServerState = "starting";
  error?: string;
  tools: RemoteTool[] = [];
  sandbox?: ServerSandbox;
  #client = new Client({ name: "tern", version: "0.1.0" });
  #stdio?: InstanceType<typeof StdioClientTransport>;
  #stderr = "";

  constructor(readonly config: McpServerConfig, private readonly options: HubOptions) {}

  get sandboxed(): boolean {
    return this.sandbox !== undefined && this.sandbox.kind !== "none";
  }

  get trusted(): boolean {
    return this.options.trusted === true;
  }

  async start(): Promise<void> {
    try {
      const transport = await this.#transport();
      this.#client.onclose = () => {
        if (this.state === "closed") return;
        const said = lastWords(this.#stderr);
        this.#fail(`the server stopped${said ? ` (it said: ${said.slice(0, 200)})` : ""}`);
      };
      await this.#client.connect(transport, { timeout: 60_000 });
      const tools: RemoteTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await this.#client.listTools(cursor ? { cursor } : undefined, { timeout: 30_000 });
        tools.push(...page.tools as RemoteTool[]);
        cursor = page.nextCursor;
      } while (cursor && tools.length < 1000);
      if (this.state !== "starting") return;
      this.tools = tools;
      this.state = "ready";
    } catch (error) {
      this.#fail(error instanceof Error ? error.message : String(error));
      await this.close();
    }
  }

  async #transport(): Promise<Transport> {
    if (this.config.type === "http") {
      return new StreamableHTTPClientTransport(new URL(this.config.url), {
        requestInit: { headers: this.config.headers, credentials: "omit" },
      });
    }
    const { argv, env } = await this.#stdioCommand(this.config);
    const transport = new StdioClientTransport({
      command: argv[0],
      args: argv.slice(1),
      env,
      cwd: this.options.root,
      stderr: "pipe",
    });
    this.#stdio = transport;
    // The SDK's reader drops the whole connection at a message over 10 MB: this one cuts it (the SDK is
    // pinned, and its reader is the transport's one field for it).
    (transport as unknown as { _readBuffer: MessageReader })._readBuffer = new CappedReadBuffer();
    // Drained always (a full pipe would block the server); the tail explains a crash.
    transport.stderr?.on("data", (chunk: Uint8Array | string) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    return transport;
  }

  /** bash (exec, so the server is the process tern signals), inside bubblewrap as `serverSandbox` decides. */
  async #stdioCommand(config: StdioServerConfig): Promise<{ argv: string[]; env: Record<string, string> }> {
    const mode = config.sandbox === false ? "off" : this.options.sandbox;
    const probe = mode === "off" ? undefined : await (this.options.detect ?? detectBubblewrap)();
    const how = serverSandbox(config, {
      mode,
      available: probe?.available,
      unavailable: probe?.reason,
      trusted: this.trusted,
    });
    if (typeof how === "string") throw new Error(how);
    this.sandbox = how;
    // Without the network, npm and uv are told so: npx fails at once, saying why, instead of retrying a minute.
    const offline: Record<string, string> = this.sandboxed && !how.network
      ? { npm_config_offline: "true", UV_OFFLINE: "1" }
      : {};
    const env = { ...childEnv({ sandboxed: this.sandboxed }), ...offline, ...config.env };
    const shell = ["bash", "-c", 'exec "$0" "$@"', config.command, ...config.args];
    if (!this.sandboxed) return { argv: shell, env };
    const jail = bwrapArgs({
      root: this.options.root,
      home: env.HOME,
      ownHome: how.kind === "project",
      path: env.PATH,
      network: how.network,
      // The project's protected files (tern's state among them) stay read-only, as for commands.
      readOnly: [".git/config", ".git/hooks", ...SANDBOX_PROTECTED.dirs, ...SANDBOX_PROTECTED.files],
    });
    return { argv: ["bwrap", ...jail, "--", ...shell], env };
  }

  #fail(message: string): void {
    if (this.state === "closed" || this.state === "failed") return;
    // A server that never started says what it ran in and which keys of its entry change that.
    const hint = this.state === "starting" && this.config.type === "stdio" && this.sandbox
      ? ` — ${startHint(this.config, this.sandbox, this.trusted)}`
      : "";
    this.state = "failed";
    // deno-lint-ignore no-control-regex -- matching control characters is the point
    this.error = message.replace(/[\x00-\x1f\x7f]+/g, " ").slice(0, 300) + hint;
  }

  async call(name: string, args: Record<string, unknown>, signal: AbortSignal) {
    if (this.state !== "ready") {
      throw new Error(
        `the MCP server "${this.config.name}" is ${this.state}${this.error ? `: ${this.error}` : ""}`,
      );
    }
    const result = await this.#client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: this.options.callTimeoutMs ?? 120_000,
    });
    return { content: (result.content ?? []) as RemoteContent[], isError: result.isError === true };
  }

  /**
   * Stops the server. `wait: false` (a run whose answer is out) signals it and returns at once: its stdin
   * closes and it gets SIGTERM now, instead of the SDK's wait of up to two seconds for it to exit first.
   */
  async close(options: { wait?: boolean } = {}): Promise<void> {
    if (this.state !== "failed") this.state = "closed";
    if (options.wait === false) {
      // The SDK keeps its child process private; this pinned version names it `_process`.
      const child = (this.#stdio as unknown as { _process?: { kill(signal: string): void } })?._process;
      try {
        child?.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      this.#client.close().catch(() => {});
      return;
    }
    await this.#client.close().catch(() => {});
  }
}

/** The line of a server's stderr that says most: the last, unless it only points at a log file. */
function lastWords(stderr: string): string {
  const lines = stderr.split("\n").map((line) => line.trim()).filter((line) =>
    line !== "" && !/complete log of this run/i.test(line)
  );
  return lines.at(-1) ?? "";
}

/** The servers of one tern process: started together, closed together. */
export class McpHub {
  readonly servers: McpServer[];
  readonly #servers: Server[];
  readonly #started: Promise<void>;

  /** Starts every server at once (the returned hub is usable at once; see `ready`). */
  constructor(configs: McpServerConfig[], options: HubOptions) {
    this.#servers = configs.map((config) => new Server(config, options));
    this.servers = this.#servers;
    this.#started = Promise.all(this.#servers.map((server) => server.start())).then(() => {});
  }

  /** Resolves when every server is ready or failed, or after `limitMs`, whichever comes first. */
  async ready(limitMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
    try {
      await Promise.race([this.#started, limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Stops every server (stdin closed, then SIGTERM, then SIGKILL; bounded by a few seconds); `wait: false`
   * signals them all and returns at once.
   */
  async close(options: { wait?: boolean } = {}): Promise<void> {
    await Promise.all(this.#servers.map((server) => server.close(options)));
  }
}
