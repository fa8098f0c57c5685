/**
 * `--input-format stream-json`: stdin carries JSON lines, read while turns run. `{"type":"user","text":...}`,
 * or Claude Code's SDK shape `{"type":"user","message":{"role":"user","content":...}}` (user_line.ts),
 * queues a message (each starts a turn in the same session); `{"type":"approval","id":...,"decision":...}`
 * answers a pending approval question (an answer to no question asked is reported and dropped). A line that is neither is reported and skipped; EOF ends the run once
 * the queued messages are done, and answers every question still waiting with "no answer".
 */
import { after } from "../../timer.ts";
import type { ApprovalAnswer } from "../../agent/policy/approval.ts";
import { type StreamMessage, userLine } from "./user_line.ts";

export type { StreamMessage };

/** The decisions an approval line may carry. */
export const DECISIONS = ["allow", "allow_session", "deny", "abort"] as const;

/** One decision of an approval line. */
export type Decision = (typeof DECISIONS)[number];

type Waiter<T> = (value: T) => void;

/** The messages and answers of a stream-json stdin, as they arrive. */
export class StreamInput {
  #messages: StreamMessage[] = [];
  #messageWaiter?: Waiter<void>;
  #answerWaiters = new Map<string, Waiter<ApprovalAnswer | null>>();
  #ended = false;
  #line = 0;
  readonly #onProblem: (message: string) => void;
  /** Settles when stdin has ended (or could not be read any more). */
  readonly done: Promise<void>;

  /** Starts reading `readable`; `onProblem` hears of each line that was skipped, and why. */
  constructor(readable: ReadableStream<Uint8Array>, onProblem: (message: string) => void) {
    this.#onProblem = onProblem;
    this.done = this.#read(readable);
  }

  /** True once stdin has ended: no answer can come any more. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The next user message, waiting for one; null once stdin has ended with none left. */
  async next(): Promise<StreamMessage | null> {
    while (this.#messages.length === 0 && !this.#ended) {
      await new Promise<void>((resolve) => this.#messageWaiter = resolve);
    }
    return this.#messages.shift() ?? null;
  }

  /** The answer to the question about call `id`; null when `timeoutMs` passes, stdin ends or `signal` fires. */
  answer(id: string, timeoutMs: number, signal?: AbortSignal): Promise<ApprovalAnswer | null> {
    if (this.#ended || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const finish = (value: ApprovalAnswer | null) => {
        timer.clear();
        signal?.removeEventListener("abort", onAbort);
        this.#answerWaiters.delete(id);
        resolve(value);
      };
      const onAbort = () => finish(null);
      const timer = after(timeoutMs, () => finish(null));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#answerWaiters.set(id, finish);
    });
  }

  async #read(readable: ReadableStream<Uint8Array>): Promise<void> {
    let pending = "";
    try {
      for await (const chunk of readable.pipeThrough(new TextDecoderStream())) {
        pending += chunk;
        let newline;
        while ((newline = pending.indexOf("\n")) >= 0) {
          this.#take(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
        }
      }
      this.#take(pending);
    } catch (error) {
      this.#onProblem(`stdin could not be read: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#ended = true;
      this.#messageWaiter?.();
      for (const finish of [...this.#answerWaiters.values()]) finish(null);
    }
  }

  #take(raw: string): void {
    this.#line++;
    const line = raw.trim();
    if (line === "") return;
    const where = `stdin line ${this.#line}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.#onProblem(`${where} is not JSON; expected {"type":"user","text":"..."}`);
    }
    const problem = this.#dispatch(value);
    if (problem) this.#onProblem(`${where}: ${problem}`);
  }

  /** Queues a message or hands an answer over; the problem with the line otherwise. */
  #dispatch(value: unknown): string | undefined {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return 'not an object; expected {"type":"user","text":"..."}';
    }
    const line = value as Record<string, unknown>;
    if (line.type === "user") {
      const message = userLine(line);
      if (typeof message === "string") return message;
      this.#messages.push(message);
      this.#messageWaiter?.();
      return undefined;
    }
    if (line.type === "approval") {
      if (typeof line.id !== "string") return 'an approval needs the "id" of the call it answers';
      if (!(DECISIONS as readonly unknown[]).includes(line.decision)) {
        return `an approval's "decision" must be one of ${DECISIONS.join(", ")}`;
      }
      const reason = typeof line.reason === "string" ? line.reason : undefined;
      const answer = toAnswer(line.decision as Decision, reason);
      const waiter = this.#answerWaiters.get(line.id);
      // Only a question asked takes an answer: one sent ahead (a guessed id) would allow a call unseen.
      if (!waiter) {
        return `no approval_request is waiting for call ${JSON.stringify(line.id)}; an approval answers a ` +
          "question already asked, so this one was dropped";
      }
      waiter(answer);
      return undefined;
    }
    return `unknown type ${JSON.stringify(line.type)}; expected "user" or "approval"`;
  }
}

function toAnswer(decision: Decision, reason?: string): ApprovalAnswer {
  if (decision === "allow") return { kind: "once" };
  if (decision === "allow_session") return { kind: "session" };
  if (decision === "abort") return { kind: "abort" };
  return { kind: "deny", reason };
}
