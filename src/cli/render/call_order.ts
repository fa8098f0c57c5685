/**
 * Calls that run side by side (reads, sub-agents) are announced together and finish in any order. So that
 * each result is printed under its own call line (matched by id), a call announced while another waits for
 * its result is held back, shown live meanwhile, and printed once the calls before it have their results.
 */

interface Held {
  id: string;
  line: string;
  /** The line without styles, for the live area. */
  plain: string;
  /** Its result line, once it came (undefined: none yet; null: a result that prints no line). */
  result?: string | null;
}

/** The order in which call and result lines reach the scrollback. */
export class CallOrder {
  /** The call whose line was printed last and whose result is still to come. */
  #open?: string;
  readonly #held: Held[] = [];

  /**
   * A call was announced (`plain`: its line without styles): the lines to print now (its own, unless
   * another call still waits for its result).
   */
  call(id: string, line: string, plain = line): string[] {
    if (this.#open !== undefined) {
      this.#held.push({ id, line, plain });
      return [];
    }
    this.#open = id;
    return [line];
  }

  /**
   * A call's result (`line` null when it prints none): the lines to print now, in order: its result when
   * its call is the open one, then each held call with the result it already has, up to one still running.
   */
  result(id: string, line: string | null): string[] {
    const held = this.#held.find((call) => call.id === id);
    if (held) {
      held.result = line;
      return [];
    }
    const out = lines(line);
    if (this.#open !== id) return out; // a call never announced here: its result as it comes
    this.#open = undefined;
    while (this.#held.length > 0) {
      const next = this.#held.shift()!;
      out.push(next.line);
      if (next.result === undefined) {
        this.#open = next.id;
        break;
      }
      out.push(...lines(next.result));
    }
    return out;
  }

  /** The held calls' lines without styles, for a live area under the scrollback (they are running). */
  get pending(): string[] {
    return this.#held.map((call) => call.plain);
  }

  /** Everything still held, in order (the task ended), and a fresh start. */
  flush(): string[] {
    const out = this.#held.flatMap((call) => [call.line, ...lines(call.result ?? null)]);
    this.#held.length = 0;
    this.#open = undefined;
    return out;
  }
}

function lines(line: string | null | undefined): string[] {
  return line === null || line === undefined ? [] : [line];
}
