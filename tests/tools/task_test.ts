import { assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { createTaskTool, type SubAgentRequest } from "../../src/tools/task.ts";
import { ToolError } from "../../src/tools/tool.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("task lists the named agents to the model and hands the runner the job it inspected", async () => {
  await using project = await tempProject({});
  const jobs: SubAgentRequest[] = [];
  const tool = createTaskTool([{ name: "reviewer", description: "reviews code" }], (request) => {
    jobs.push(request);
    return Promise.resolve({ content: "the answer" });
  });
  assertStringIncludes(tool.description, "- reviewer: reviews code");
  const args = { description: "review  the\nparser", prompt: "Review src/parse.ts", agent: "reviewer" };
  const inspected = await tool.inspect(args, project.ctx);
  assertEquals([inspected.effect, inspected.summary], ["read", "reviewer: review the parser"]);
  assertEquals(await tool.run(args, project.ctx, inspected.plan), { content: "the answer" });
  assertEquals(jobs, [{
    agent: "reviewer",
    description: "review the parser",
    prompt: "Review src/parse.ts",
  }]);
  const general = await tool.inspect({ description: "look", prompt: "Look around" }, project.ctx);
  assertEquals(general.summary, "general: look");
});

Deno.test("task refuses an unknown agent, naming the agents, and an empty prompt", async () => {
  await using project = await tempProject({});
  const tool = createTaskTool(
    [{ name: "reviewer", description: "r" }],
    () => Promise.resolve({ content: "" }),
  );
  await assertRejects(
    () => tool.inspect({ description: "d", prompt: "p", agent: "hacker" }, project.ctx),
    ToolError,
    'there is no agent "hacker". The agents are: general, reviewer.',
  );
  await assertRejects(
    () => tool.inspect({ description: "d", prompt: "  " }, project.ctx),
    ToolError,
    "prompt is empty",
  );
});
