/** `/rename` and `/fork` in the REPL, then `tern sessions` and `tern -r NAME`, through the real CLI. */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("/rename names the session for tern -r NAME; /fork goes on in a copy and leaves the named one as it was", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" };
  const input = "first question\n/rename  login   fix \n/fork\nsecond question\n/exit\n";
  const repl = await runTern({ cwd: project.root, args: [], env, input });
  assertEquals(repl.code, 0, repl.stderr);
  const named = /Session (\S+) is now named "login fix"\./.exec(repl.stdout);
  assert(named, repl.stdout);
  const original = named[1];
  assertMatch(repl.stdout, new RegExp(`Forked session ${original}: this is now session \\S+\\.`));
  assertStringIncludes(repl.stdout, `The original is left as it was (/resume ${original} goes back to it).`);
  const list = await runTern({ cwd: project.root, args: ["sessions"] });
  const lines = list.stdout.trimEnd().split("\n");
  assertEquals(lines.length, 2, list.stdout);
  assertMatch(lines[0], /· REPL · 2 prompts · "first question" · fake-model · /); // the fork, unnamed
  assertMatch(
    lines[1],
    new RegExp(`· REPL · 1 prompt · \\[login fix\\] "first question" · fake-model · ${original}$`),
  );
  const resumed = await runTern({
    cwd: project.root,
    args: ["-r", "Login Fix", "-p", "third question"],
    env,
  });
  assertEquals(resumed.code, 0, resumed.stderr);
  const sent = model.requests.at(-1)!.messages as { role: string; content: string }[];
  assertEquals(sent.filter((m) => m.role === "user").map((m) => m.content), [
    "first question",
    "third question",
  ]);
});

Deno.test("/rename with nothing to name says why, and /fork before the first prompt has nothing to copy", async () => {
  await using project = await tempProject();
  await using model = await startFakeModel([{ text: "one" }]);
  const env = { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" };
  const repl = await runTern({ cwd: project.root, args: [], env, input: "/rename\n/fork\n/exit\n" });
  assertEquals(repl.code, 0, repl.stderr);
  assertStringIncludes(
    repl.stdout,
    "Not renamed: a name needs at least one character, e.g. /rename login fix.",
  );
  assertStringIncludes(repl.stdout, "Nothing to fork yet: the session is saved from its first prompt on.");
  const unsaved = await runTern({
    cwd: project.root,
    args: ["--no-session"],
    env,
    input: "/rename x\n/exit\n",
  });
  assertStringIncludes(unsaved.stdout, "This session is not saved (--no-session): there is nothing to name.");
});
