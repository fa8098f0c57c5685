import { assertEquals, assertRejects } from "../support/assert.ts";
import { createUpdatePlanTool, type PlanUpdate } from "../../src/tools/update_plan.ts";
import { ToolError } from "../../src/tools/tool.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("update_plan reads a checklist, hands the whole plan on tidied, and changes nothing on disk", async () => {
  await using project = await tempProject({});
  const plans: PlanUpdate[] = [];
  const tool = createUpdatePlanTool((plan) => plans.push(plan));
  // Marks with and without a Markdown bullet, blank lines, CRLF and runs of spaces inside a step.
  const args = { plan: "[x]   read   the code \r\n\n- [>] fix it\n* [ ] run the tests\n[X] tidy" };
  const inspected = await tool.inspect(args, project.ctx);
  assertEquals([inspected.effect, inspected.summary], ["read", "2/4 done"]);
  const result = await tool.run(args, project.ctx, inspected.plan);
  assertEquals(result, { content: "Plan updated.", details: { quiet: true } });
  assertEquals(plans, [{
    steps: [
      { step: "read the code", status: "done" },
      { step: "fix it", status: "in_progress" },
      { step: "run the tests", status: "pending" },
      { step: "tidy", status: "done" },
    ],
  }]);
  assertEquals([...Deno.readDirSync(project.root)], []);
});

Deno.test("update_plan refuses two steps in progress, an empty step, a line without a mark, no steps, and too many", async () => {
  await using project = await tempProject({});
  const tool = createUpdatePlanTool(() => {});
  const refuses = (plan: string, message: string) =>
    assertRejects(() => tool.inspect({ plan }, project.ctx), ToolError, message);
  await refuses("[>] a\n[>] b", "2 steps are in progress");
  await refuses("[ ] a\n[ ]   ", "step 2 has no text");
  await refuses("[ ] a\nfix the bug", 'step 2 ("fix the bug") has no status mark');
  await refuses("[?] a", "has no status mark");
  await refuses(" \n\n", "the plan has no steps");
  await refuses(Array.from({ length: 31 }, () => "[ ] x").join("\n"), "31 steps");
  await refuses(`[ ] ${"x".repeat(201)}`, "longer than 200 characters");
});
