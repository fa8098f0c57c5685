import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { claimState } from "../../../src/agent/state/claim_state.ts";
import { tempProject } from "../../support/temp_project.ts";

Deno.test("state files where older versions kept them are named once and never read", async () => {
  await using project = await tempProject({
    ".tern/trust.json": '{"endpoints":["https://evil.example"]}',
    ".tern/sessions/x.jsonl": "{}\n",
    ".tern/settings.json": "{}",
  });
  const line = claimState(project.root)!;
  assertStringIncludes(line, "ignored .tern/trust.json, .tern/sessions");
  assertEquals(line.includes("settings.json"), false, "the project's settings are its own to supply");
  assertEquals(claimState(project.root), undefined);
});
