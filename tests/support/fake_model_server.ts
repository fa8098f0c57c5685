/**
 * A real HTTP fake of a model on 127.0.0.1 speaking all three wires (chat completions at
 * `/v1/chat/completions`, Anthropic Messages at `/v1/messages`, OpenAI Responses at `/v1/responses`):
 * scripted turns, fault injection, raw replay, and each wire's history checks.
 */
import { abortableSleep } from "../../src/llm/retry.ts";
import { anthropicFrames, anthropicIssued, checkAnthropicRequest } from "./_fake_anthropic_wire.ts";
import {
  chatIssued,
  checkRequest,
  type ReasoningRule,
  recordChatTurn,
  type ScriptedTurn,
  turnPayloads,
} from "./_fake_model_wire.ts";
import { checkResponsesRequest, responsesFrames, responsesIssued } from "./_fake_responses_wire.ts";

export type { ScriptedToolCall, ScriptedTurn } from "./_fake_model_wire.ts";

/** A running fake model server; `await using` closes it. */
export interface FakeModel extends AsyncDisposable {
  /** Base URL for the OpenAI wires, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** The server's root without `/v1`: the base URL for the Anthropic wire (it appends `/v1/messages`). */
  root: string;
  /** Parsed JSON bodies of the model requests received, in order (rejected ones included). */
  requests: Record<string, unknown>[];
  /** The wire each request spoke, by position in `requests`. */
  wires: Wire[];
  /** The key each request carried (`Authorization: Bearer …` or `x-api-key`), null for none, by position. */
  keys: (string | null)[];
  /** Stops the server, aborting in-flight streams and pending delays. */
  close(): Promise<void>;
}

/**
 * A script: a list of turns served in order, or a function choosing the turn for each request (it may wait,
 * e.g. until another request has arrived, which shows that two requests were in flight at once).
 */
export type Script =
  | ScriptedTurn[]
  | ((body: Record<string, unknown>, index: number) => ScriptedTurn | Promise<ScriptedTurn>);

/** Where to listen; port 0 (the default) picks a free port. */
export interface FakeModelOptions {
  port?: number;
  /** Called with a one-line summary of each request (the CLI logs them). */
  onRequest?: (summary: string) => void;
  /** Leave `requests` empty: a 1,000-turn bench session's bodies would hold hundreds of MB here. */
  forgetBodies?: boolean;
  /** How the chat wire treats `reasoning_content` on tool-call messages (default "thinking", as DeepSeek). */
  reasoning?: ReasoningRule;
}

/** One response: raw SSE frames plus how to pace them. */
interface Plan {
  frames: (string | Uint8Array)[];
  delayMs?: number;
  chunkDelayMs?: number;
}

const encoder = new TextEncoder();

/** The wire formats the fake speaks, by request path. */
export type Wire = "chat" | "anthropic" | "responses";

const ROUTES: Record<string, Wire> = {
  "/v1/chat/completions": "chat",
  "/v1/messages": "anthropic",
  "/v1/responses": "responses",
};

/** Starts a fake model serving `script` on all three wires' paths and a model list on GET /v1/models. */
export function startFakeModel(script: Script, options: FakeModelOptions = {}): FakeModel {
  const requests: Record<string, unknown>[] = [];
  const wires: Wire[] = [];
  const keys: (string | null)[] = [];
  // What was handed out (signatures, encrypted reasoning), so later requests are checked against it.
  const chat = chatIssued(options.reasoning);
  const anthropic = anthropicIssued();
  const responses = responsesIssued();
  let count = 0;
  return serve(options.port ?? 0, async (body, signal, { wire, headers }) => {
    const index = count++;
    if (!options.forgetBodies) requests.push(body);
    wires.push(wire);
    keys.push(headers.get("x-api-key") ?? headers.get("authorization")?.replace(/^Bearer /, "") ?? null);
    const problem = wire === "chat"
      ? checkRequest(body, chat)
      : wire === "anthropic"
      ? checkAnthropicRequest(body, headers, anthropic)
      : checkResponsesRequest(body, responses);
    options.onRequest?.(`#${index} ${problem ? `rejected: ${problem}` : "ok"}`);
    if (problem) return errorResponse(400, `fake model: invalid request: ${problem}`);
    let turn: ScriptedTurn;
    try {
      turn = await pickTurn(script, body, index);
    } catch (error) {
      return errorResponse(500, `fake model: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (turn.delayMs) await abortableSleep(turn.delayMs, signal);
    if (signal.aborted) return errorResponse(503, "fake model: closed while the response was pending");
    if (turn.status !== undefined) return statusResponse(turn);
    const context = { model: String(body.model), turnIndex: index };
    if (wire === "chat") recordChatTurn(chat, turn, index);
    let frames = wire === "chat"
      ? turnPayloads(turn, context).map(dataFrame)
      : wire === "anthropic"
      ? anthropicFrames(turn, context, anthropic)
      : responsesFrames(turn, context, responses);
    if (turn.cutAfterChunks !== undefined) frames = frames.slice(0, turn.cutAfterChunks);
    else if (wire === "chat" && !turn.omitDone && !turn.streamError) frames.push(dataFrame("[DONE]"));
    return { frames, chunkDelayMs: turn.chunkDelayMs };
  }, { requests, wires, keys });
}

/** Options of a raw replay. */
export interface ReplayOptions {
  /** Cut the byte stream into pieces of this many bytes (default: one write per event). */
  byteChunkSize?: number;
  /** Line ending used between fields and events (default "\n"). */
  eol?: "\n" | "\r\n" | "\r";
  /** Append `data: [DONE]` (default true, false with `named`). */
  done?: boolean;
  /** Precede each line with `event: <its JSON "type">`, as Anthropic and Responses streams do. */
  named?: boolean;
}

/**
 * Serves the same raw stream to every model request, on any wire's path: each line as `data: <line>`
 * (with `event: <type>` when `named`), then [DONE] unless told otherwise.
 */
export function replayChunks(lines: string[], options: ReplayOptions = {}): FakeModel {
  const eol = options.eol ?? "\n";
  const events = lines.filter((line) => line.trim() !== "").map((line) => {
    const name = options.named ? `event: ${JSON.parse(line).type}${eol}` : "";
    return `${name}data: ${line}${eol}${eol}`;
  });
  if (options.done ?? !options.named) events.push(`data: [DONE]${eol}${eol}`);
  const bytes = encoder.encode(events.join(""));
  const size = options.byteChunkSize;
  const pieces: Uint8Array[] = [];
  if (size) { for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size)); }
  else pieces.push(...events.map((event) => encoder.encode(event)));
  const requests: Record<string, unknown>[] = [];
  const wires: Wire[] = [];
  return serve(0, (body, _signal, { wire }) => {
    requests.push(body);
    wires.push(wire);
    return Promise.resolve({ frames: pieces });
  }, { requests, wires });
}

/** Serves a `*.chunks.txt` fixture file (one JSON payload per line) with replayChunks. */
export async function replayFixture(path: string | URL, options: ReplayOptions = {}): Promise<FakeModel> {
  return replayChunks((await Deno.readTextFile(path)).split("\n"), options);
}

type Handler = (
  body: Record<string, unknown>,
  signal: AbortSignal,
  request: { wire: Wire; headers: Headers },
) => Promise<Plan | Response>;

function serve(
  port: number,
  handle: Handler,
  log: { requests: Record<string, unknown>[]; wires: Wire[]; keys?: (string | null)[] },
): FakeModel {
  const inFlight = new Set<AbortController>();
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET" && path === "/v1/models") return Response.json(MODELS);
    const wire = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
    if (req.method !== "POST" || wire === undefined) {
      return errorResponse(404, `fake model: no route for ${req.method} ${path}`);
    }
    const body = await req.json().catch(() => undefined);
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return errorResponse(400, "fake model: the request body is not a JSON object");
    }
    const controller = new AbortController();
    inFlight.add(controller);
    const release = () => inFlight.delete(controller);
    try {
      const plan = await handle(body, controller.signal, { wire, headers: req.headers });
      if (plan instanceof Response) {
        release();
        return plan;
      }
      return new Response(paced(plan, controller, release), { headers: SSE_HEADERS });
    } catch (error) {
      release();
      return errorResponse(503, `fake model: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      for (const controller of inFlight) controller.abort(new Error("fake model closed"));
      await server.shutdown();
    })();
    return closing;
  };
  const root = `http://127.0.0.1:${server.addr.port}`;
  return { url: `${root}/v1`, root, keys: [], ...log, close, [Symbol.asyncDispose]: close };
}

/** A body that writes the frames with the planned pauses; aborting ends it early. */
function paced(plan: Plan, controller: AbortController, release: () => void): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        if (next > 0 && plan.chunkDelayMs) await abortableSleep(plan.chunkDelayMs, controller.signal);
        if (controller.signal.aborted) throw controller.signal.reason;
        if (next < plan.frames.length) {
          const frame = plan.frames[next++];
          stream.enqueue(typeof frame === "string" ? encoder.encode(frame) : frame);
          return;
        }
        release();
        stream.close();
      } catch {
        // Closing the server ends the stream early, as a dropped upstream would (no [DONE]); an error here
        // would only make Deno.serve print a stack trace.
        release();
        stream.close();
      }
    },
    cancel() {
      // The client went away: stop pending delays.
      controller.abort(new Error("client disconnected"));
      release();
    },
  });
}

function pickTurn(
  script: Script,
  body: Record<string, unknown>,
  index: number,
): ScriptedTurn | Promise<ScriptedTurn> {
  if (typeof script === "function") return script(body, index);
  const turn = script[index];
  if (!turn) {
    throw new Error(
      `script exhausted: request #${index + 1} arrived but only ${script.length} turn(s) are scripted`,
    );
  }
  return turn;
}

function statusResponse(turn: ScriptedTurn): Response {
  const status = turn.status ?? 500;
  const headers: Record<string, string> = {};
  if (turn.retryAfter !== undefined) headers["retry-after"] = turn.retryAfter;
  if (turn.errorBody !== undefined) return new Response(turn.errorBody, { status, headers });
  return errorResponse(status, `fake model: scripted HTTP ${status}`, headers);
}

function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  const type = status >= 500 ? "server_error" : "invalid_request_error";
  return Response.json({ error: { message, type, code: status } }, { status, headers });
}

function dataFrame(payload: unknown): string {
  return `data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`;
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };
const MODELS = {
  object: "list",
  data: [{ id: "fake-model", object: "model", created: 0, owned_by: "tern-tests" }],
};
