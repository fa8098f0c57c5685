/** A resumed session continues on the model it ended with, unless the command line names another. */
import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

Deno.test("after /model other-model in the REPL, tern -c -p on the same --base-url continues on other-model; --model wins", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel((_body, i) => ({ text: `Answer ${i}.` }));
  const env = { TERN_API_KEY: "k", TERN_MODEL: "first-model" };
  const base = ["--base-url", model.url];
  const repl = await runTern({
    cwd: project.root,
    args: base,
    env,
    input: "hello\n/model other-model\nagain\n/exit\n",
  });
  assertEquals(repl.code, 0, repl.stderr);
  assertEquals(model.requests.map((body) => body.model), ["first-model", "other-model"]);
  const resumed = await runTern({ cwd: project.root, args: ["-c", "-p", "go on", ...base], env });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertEquals(model.requests.at(-1)!.model, "other-model", resumed.stderr);
  const named = await runTern({
    cwd: project.root,
    args: ["-c", "-p", "and now", ...base, "--model", "third-model"],
    env,
  });
  assertEquals(named.code, 0, named.stderr);
  assertEquals(model.requests.at(-1)!.model, "third-model");
  // The switch the command line made is logged: the next resume continues on it.
  const again = await runTern({ cwd: project.root, args: ["-c", "-p", "last", ...base], env });
  assertEquals(again.code, 0, again.stderr);
  assertEquals(model.requests.at(-1)!.model, "third-model");
  assertEquals(again.stderr.includes("continuing on"), false, again.stderr);
});

Deno.test("a session that ended on a preset, resumed on a custom --base-url, stays on the endpoint given and says so", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel((_body, i) => ({ text: `Answer ${i}.` }));
  const env = { TERN_API_KEY: "k", TERN_MODEL: "first-model" };
  const repl = await runTern({
    cwd: project.root,
    args: ["--base-url", model.url],
    env: { ...env, DEEPSEEK_API_KEY: "k2" },
    input: "hello\n/model deepseek/deepseek-chat\n/exit\n",
  });
  assertEquals(repl.code, 0, repl.stderr);
  const resumed = await runTern({
    cwd: project.root,
    args: ["-c", "-p", "go on", "--base-url", model.url],
    env,
  });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertEquals(model.requests.at(-1)!.model, "first-model");
  assertStringIncludes(resumed.stderr, "the session ended on deepseek-chat");
  assertStringIncludes(resumed.stderr, "tern runs on the custom endpoint it was given");
});
