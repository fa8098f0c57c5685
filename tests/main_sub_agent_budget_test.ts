/** Sub-agents' tokens count toward --token-budget and show in the run's usage, through the real CLI. */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { senderOf } from "./support/sub_agent_script.ts";
import { tempProject } from "./support/temp_project.ts";

const CHILD_TOKENS = 4000;

Deno.test("tern -p --token-budget 20000: 50 task calls stop once the children used the budget; usage counts them", async () => {
  await using project = await tempProject();
  const calls = Array.from({ length: 50 }, (_, i) => ({
    name: "task",
    arguments: JSON.stringify({ description: `job ${i}`, prompt: `look at part ${i}` }),
  }));
  await using model = await startFakeModel((body) => {
    const sender = senderOf(body);
    if (sender.child) {
      return {
        text: "found it",
        usage: { prompt_tokens: CHILD_TOKENS - 10, completion_tokens: 10, total_tokens: CHILD_TOKENS },
      };
    }
    const usage = { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 };
    return sender.turn === 0 ? { toolCalls: calls, usage } : { text: "Partial report.", usage };
  });
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "survey everything", "--token-budget", "20000", "--output", "json", "--approve", "all"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  const result = JSON.parse(run.stdout);
  assertEquals([run.code, result.exit_reason], [3, "token_budget"], run.stderr);
  const children = model.requests.filter((body) => senderOf(body).child).length;
  // At most 3 run at once; once 20,000 tokens are used none starts: 5 fit, 3 more may have been running.
  assert(children >= 5 && children <= 8, `${children} children ran`);
  assertEquals(model.requests.length, children + 2, "the main task's first call and its finalisation");
  assertEquals(result.usage.total_tokens, children * CHILD_TOKENS + 200);
  // The refused ones told the model why.
  const refused = (model.requests.at(-1)!.messages as { role: string; content: string }[])
    .filter((message) => message.role === "tool" && message.content.includes("task: not started"));
  assertEquals(refused.length, 50 - children);
  assertStringIncludes(refused[0].content, "the token budget of 20000 (--token-budget) was used up");
});
