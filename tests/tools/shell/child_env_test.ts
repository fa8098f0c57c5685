import { assert, assertEquals } from "../../support/assert.ts";
import { childEnv } from "../../../src/tools/shell/child_env.ts";

Deno.test("childEnv() keeps the harmless variables and LC_*, never a secret or an unlisted name", () => {
  const set = { LC_TIME: "C", LC_API_KEY: "sk-test", HOME_TOKEN: "hunter2", RANDOM_SETTING: "x" };
  for (const [name, value] of Object.entries(set)) Deno.env.set(name, value);
  try {
    const env = childEnv();
    assertEquals(env.LC_TIME, "C");
    for (const name of ["LC_API_KEY", "HOME_TOKEN", "RANDOM_SETTING"]) assert(!(name in env), name);
    assert(Object.keys(env).every((name) => !/KEY|TOKEN|SECRET|PASSWORD/i.test(name)));
    assert(env.PATH !== undefined);
  } finally {
    for (const name of Object.keys(set)) Deno.env.delete(name);
  }
});

Deno.test("childEnv() points TMPDIR at the sandbox's private /tmp when sandboxed", () => {
  assertEquals(childEnv({ sandboxed: true }).TMPDIR, "/tmp");
});
