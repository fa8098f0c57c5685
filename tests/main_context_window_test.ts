/**
 * Every request fits the model's context window (issue 22), end to end: the real CLI, a fake model on each
 * wire recording the bodies it was sent, runs continued with -c, a huge tool result, a switch to a smaller
 * window. A body's size is measured in bytes as sent; the window holds about four bytes a token.
 */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { type FakeModel, type ScriptedTurn, startFakeModel, type Wire } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

const WIRES = ["chat", "anthropic", "responses"] as const;

/** The bytes of a request body as it went over the wire. */
function bodyBytes(body: Record<string, unknown>): number {
  return new TextEncoder().encode(JSON.stringify(body)).length;
}

/** Whether a request is tern's summary call (its instructions open the system prompt on every wire). */
function isSummary(body: Record<string, unknown>): boolean {
  return JSON.stringify(body).includes("You summarise a coding agent's conversation");
}

/** Whether the request's last item is a tool result, whatever the wire. */
function endsWithToolResult(body: Record<string, unknown>, wire: Wire): boolean {
  if (wire === "chat") return (body.messages as { role: string }[]).at(-1)?.role === "tool";
  if (wire === "responses") {
    return (body.input as { type?: string }[]).at(-1)?.type === "function_call_output";
  }
  const last = (body.messages as { content: unknown }[]).at(-1)?.content;
  return Array.isArray(last) && last.some((block) => block.type === "tool_result");
}

function env(api: string, model: FakeModel): Record<string, string> {
  return {
    TERN_BASE_URL: api === "anthropic" ? model.root : model.url,
    TERN_API_KEY: "k",
    TERN_MODEL: "fake-model",
  };
}

/** About `bytes` of prose, in lines. */
function prose(label: string, bytes: number): string {
  const line = `${label}: the quick brown fox jumps over the lazy dog, line after line of notes.\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

for (const api of WIRES) {
  Deno.test(`six runs continued with -c in a 4000-token window (${api} wire): every request fits, one is a summary`, async () => {
    await using project = await tempProject({ "notes.md": prose("notes", 1_900) });
    let answers = 0;
    const script = (body: Record<string, unknown>, index: number): ScriptedTurn => {
      if (isSummary(body)) return { text: "## Goal\nAnswer questions about notes.md.\n## Open tasks\nnone" };
      if (!endsWithToolResult(body, model.wires[index])) {
        return { toolCalls: [{ name: "read_file", arguments: '{"path":"notes.md"}' }] };
      }
      return { text: prose(`answer ${++answers}`, 1_600) };
    };
    await using model = startFakeModel(script);
    for (let run = 1; run <= 6; run++) {
      const args = [...(run > 1 ? ["-c"] : []), "-p", `question ${run} about notes.md`];
      const result = await runTern({
        cwd: project.root,
        args: [...args, "--context-window", "4000", "--api", api],
        env: env(api, model),
      });
      assertEquals(result.code, 0, result.stderr);
      assertStringIncludes(result.stdout, `answer ${run}:`);
    }
    const sizes = model.requests.map(bodyBytes);
    assert(sizes.every((bytes) => bytes <= 4000 * 4), `request sizes: ${sizes.join(", ")}`);
    assert(model.requests.some(isSummary), "a summary request was made");
    assertEquals(model.wires.every((wire) => wire === api), true);
  });
}

for (const api of WIRES) {
  Deno.test(`a 200 KB file read into a 4000-token window (${api} wire) is cut with a note naming where the rest is`, async () => {
    const big = prose("row", 200_000);
    await using project = await tempProject({ "big.log": big });
    const script = (body: Record<string, unknown>, index: number): ScriptedTurn =>
      endsWithToolResult(body, model.wires[index])
        ? { text: "The log repeats one row." }
        : { toolCalls: [{ name: "read_file", arguments: '{"path":"big.log"}' }] };
    await using model = startFakeModel(script);
    const run = await runTern({
      cwd: project.root,
      args: ["-p", "what is in big.log?", "--context-window", "4000", "--api", api],
      env: env(api, model),
    });
    assertEquals(run.code, 0, run.stderr);
    assertEquals(run.stdout, "The log repeats one row.\n");
    assertStringIncludes(run.stderr, "Context: cut the output of read_file to fit the context window");
    const sizes = model.requests.map(bodyBytes);
    assertEquals(sizes.length, 2);
    assert(sizes.every((bytes) => bytes <= 4000 * 4), `request sizes: ${sizes.join(", ")}`);
    const sent = JSON.stringify(model.requests[1]);
    const saved = sent.match(/the whole output is in (\.tern\/tool-outputs\/[\w.-]+\.txt): read it/)?.[1];
    assert(saved, "the note names the file holding the rest");
    const lines = Number(sent.match(/cut to fit the context window: (\d+) line\(s\)/)?.[1]);
    assertStringIncludes(sent, `${saved}: read it with read_file from offset ${lines + 1}`);
    // The file holds what the tool returned (the numbered page), whole: the model can read on from the cut.
    const whole = await Deno.readTextFile(`${project.root}/${saved}`);
    assertStringIncludes(whole, "     1\trow: the quick brown fox");
    assert(whole.length > 20_000, `${whole.length} characters saved`);
  });
}
