import { assertEquals } from "../../support/assert.ts";
import { planLines } from "../../../src/cli/render/plan_lines.ts";

Deno.test("planLines() shows the plan compactly: a count, done steps ticked, the running one marked", () => {
  const lines = planLines({
    type: "plan",
    steps: [
      { step: "read the code", status: "done" },
      { step: "fix the \x1b[31mbug", status: "in_progress" },
      { step: "run the tests", status: "pending" },
    ],
  }, (_color, text) => text);
  assertEquals(lines, [
    "Plan · 1/3 done",
    "  ✔ read the code",
    "  ▸ fix the ␛[31mbug", // escapes from the model are shown, never run
    "  ○ run the tests",
  ]);
});
