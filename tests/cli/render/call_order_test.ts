import { assertEquals } from "../../support/assert.ts";
import { CallOrder } from "../../../src/cli/render/call_order.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("CallOrder prints each result under its own call, whatever order they finish in", () => {
  const order = new CallOrder();
  const printed: string[] = [];
  printed.push(...order.call("a", "⏺ a"), ...order.call("b", "⏺ b"), ...order.call("c", "⏺ c"));
  assertEquals(order.pending, ["⏺ b", "⏺ c"]);
  printed.push(...order.result("c", "⎿ c")); // c finished first: held until b has printed
  printed.push(...order.result("a", "⎿ a"));
  assertEquals(order.pending, ["⏺ c"]); // b is printed and runs on; c still waits behind it
  printed.push(...order.result("b", null)); // a result that prints no line (the plan)
  assertEquals(printed, ["⏺ a", "⎿ a", "⏺ b", "⏺ c", "⎿ c"]);
  assertEquals(order.flush(), []);
});

Deno.test("tern -p prints parallel reads as call, result, call, result (matched by id)", async () => {
  await using project = await tempProject({ "a.txt": "a\n", "b.txt": "b\nb\n", "c.txt": "c\nc\nc\n" });
  await using model = await startFakeModel([
    {
      toolCalls: ["a", "b", "c"].map((name) => ({
        name: "read_file",
        arguments: JSON.stringify({ path: `${name}.txt` }),
      })),
    },
    { text: "Read them." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "read the three files"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  assertEquals(run.code, 0, run.stderr);
  const lines = run.stderr.split("\n").filter((line) => /^\s*(⏺|⎿)/.test(line)).map((line) => line.trim());
  assertEquals(lines, [
    "⏺ read_file a.txt",
    "⎿ ok 1 line",
    "⏺ read_file b.txt",
    "⎿ ok 2 lines",
    "⏺ read_file c.txt",
    "⎿ ok 3 lines",
  ]);
});
