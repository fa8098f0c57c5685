import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { finalisationText, TaskBudget } from "../../../src/agent/loop/budget.ts";
import { parseDuration } from "../../../src/config/settings.ts";

const usage = (totalTokens: number) => ({ promptTokens: totalTokens, completionTokens: 0, totalTokens });

Deno.test("TaskBudget never trips when no limit is set", () => {
  let now = 0;
  const budget = new TaskBudget({}, { now: () => now });
  for (let i = 0; i < 1000; i++) {
    budget.recordRequest();
    budget.recordUsage(usage(1_000_000));
  }
  now = 1e12;
  assertEquals(budget.exceeded(), undefined);
});

Deno.test("TaskBudget trips max_turns once the allowed number of requests was made", () => {
  const budget = new TaskBudget({ maxTurns: 2 });
  assertEquals(budget.exceeded(), undefined);
  budget.recordRequest();
  assertEquals(budget.exceeded(), undefined);
  budget.recordRequest();
  assertEquals(budget.exceeded(), "max_turns");
  assertEquals(budget.turns, 2);
  assertEquals(budget.describe("max_turns"), "the limit of 2 model requests (--max-turns) was reached");
});

Deno.test("TaskBudget trips token_budget when the summed total tokens reach the budget", () => {
  const budget = new TaskBudget({ tokenBudget: 1000 });
  budget.recordUsage(usage(600));
  budget.recordUsage(undefined);
  assertEquals(budget.exceeded(), undefined);
  budget.recordUsage(usage(400));
  assertEquals(budget.exceeded(), "token_budget");
  assertEquals(budget.tokens, 1000);
  assertStringIncludes(budget.describe("token_budget"), "1000 tokens");
});

Deno.test("TaskBudget trips time_budget by the injected clock since the task started", () => {
  let now = 5_000;
  const budget = new TaskBudget({ timeLimitMs: 60_000 }, { now: () => now });
  now += 59_999;
  assertEquals(budget.exceeded(), undefined);
  now += 1;
  assertEquals(budget.exceeded(), "time_budget");
  assertEquals(budget.elapsedMs, 60_000);
  assertEquals(budget.describe("time_budget"), "the time limit of 60 s was reached after 60 s");
});

Deno.test("TaskBudget names the request limit first when several trip at once", () => {
  let now = 0;
  const budget = new TaskBudget({ maxTurns: 1, tokenBudget: 1, timeLimitMs: 1 }, { now: () => now });
  budget.recordRequest();
  budget.recordUsage(usage(5));
  now = 10;
  assertEquals(budget.exceeded(), "max_turns");
});

Deno.test("finalisationText() asks for done, verified, not done or blocked, and a next step without claiming completion", () => {
  for (const reason of ["runaway", "max_turns", "token_budget", "time_budget"] as const) {
    const text = finalisationText(reason);
    for (const words of ["Done:", "Verified:", "Not done or blocked:", "Suggested next step:"]) {
      assertStringIncludes(text, words);
    }
    assertStringIncludes(text, "Do not claim the task is complete");
    assertStringIncludes(text, "No more tools can be called");
    assert(text.startsWith("[tern]"), "marked as tern's, not the user's");
  }
  assertStringIncludes(finalisationText("runaway"), "repeated too many times");
  assertStringIncludes(finalisationText("token_budget"), "token budget");
});

Deno.test("parseDuration() reads seconds, minutes and hours and rejects anything else", () => {
  assertEquals(parseDuration("90"), 90_000);
  assertEquals(parseDuration("90s"), 90_000);
  assertEquals(parseDuration("15m"), 900_000);
  assertEquals(parseDuration("1h30m"), 5_400_000);
  assertEquals(parseDuration(" 2H "), 7_200_000);
  for (const bad of ["", "m", "1.5m", "-5", "10 minutes", "5d"]) {
    assertEquals(parseDuration(bad), undefined, bad);
  }
});
