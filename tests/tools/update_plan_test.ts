import { assertEquals, assertRejects } from "../support/assert.ts";
import { createUpdatePlanTool, type PlanUpdate } from "../../src/tools/update_plan.ts";
import { ToolError } from "../../src/tools/tool.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("update_plan hands the whole plan on, tidied, and changes nothing on disk", async () => {
  await using project = await tempProject({});
  const plans: PlanUpdate[] = [];
  const tool = createUpdatePlanTool((plan) => plans.push(plan));
  const args = {
    plan: [{ step: "  read\nthe code ", status: "done" as const }, {
      step: "fix it",
      status: "in_progress" as const,
    }],
  };
  const inspected = await tool.inspect(args, project.ctx);
  assertEquals([inspected.effect, inspected.summary], ["read", "1/2 done"]);
  const result = await tool.run(args, project.ctx, inspected.plan);
  assertEquals(result, { content: "Plan updated.", details: { quiet: true } });
  assertEquals(plans, [{
    steps: [{ step: "read the code", status: "done" }, { step: "fix it", status: "in_progress" }],
  }]);
});

Deno.test("update_plan refuses two steps in progress, an empty step, and a plan too long", async () => {
  await using project = await tempProject({});
  const tool = createUpdatePlanTool(() => {});
  const step = (status: "pending" | "in_progress") => ({ step: "x", status });
  await assertRejects(
    () => tool.inspect({ plan: [step("in_progress"), step("in_progress")] }, project.ctx),
    ToolError,
    "2 steps are in_progress",
  );
  await assertRejects(
    () => tool.inspect({ plan: [{ step: " ", status: "pending" }] }, project.ctx),
    ToolError,
    "no text",
  );
  await assertRejects(
    () => tool.inspect({ plan: Array.from({ length: 31 }, () => step("pending")) }, project.ctx),
    ToolError,
    "31 steps",
  );
});
