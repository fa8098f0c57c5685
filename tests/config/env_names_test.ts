import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { unknownTernVariables } from "../../src/config/env_names.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { runTern } from "../support/cli.ts";
import { tempProject } from "../support/temp_project.ts";

Deno.test("unknownTernVariables() names the nearest known variable, or says there is none", () => {
  assertEquals(
    unknownTernVariables(["PATH", "TERN_MODEL", "TERN_MODLE", "TERN_BASEURL", "TERN_FOO"], ".env"),
    [
      "unknown variable TERN_BASEURL in .env: did you mean TERN_BASE_URL?",
      "unknown variable TERN_FOO in .env: tern reads no such variable (.env.example lists them)",
      "unknown variable TERN_MODLE in .env: did you mean TERN_MODEL?",
    ],
  );
});

Deno.test("an unknown TERN_* variable in .env or the environment gets one line on stderr", async () => {
  await using project = await tempProject({ ".env": "TERN_MODLE=gpt-4o\n" });
  await using model = await startFakeModel([{ text: "ok" }]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "hi"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model", TERN_APIKEY: "x" },
  });
  assertEquals([run.code, run.stdout], [0, "ok\n"], run.stderr);
  assertStringIncludes(run.stderr, "tern: unknown variable TERN_MODLE in .env: did you mean TERN_MODEL?\n");
  assertStringIncludes(
    run.stderr,
    "tern: unknown variable TERN_APIKEY in the environment: did you mean TERN_API_KEY?\n",
  );
});
