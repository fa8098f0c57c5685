/** Claude Code's SDK message shape on `--input-format stream-json`, through the real CLI. */
import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { runTern } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";

Deno.test("stream-json input takes Claude Code's SDK messages, string and blocks with an image, under --output-format", async () => {
  await using project = await tempProject();
  await using model = startFakeModel([{ text: "one" }, { text: "two" }]);
  const lines = [
    { type: "user", message: { role: "user", content: "first question" } },
    {
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "text", text: "what is in this picture?" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        ],
      },
    },
  ];
  const run = await runTern({
    cwd: project.root,
    args: ["--input-format", "stream-json", "--output-format", "json"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model", TERN_IMAGES: "on" },
    input: lines.map((line) => JSON.stringify(line) + "\n").join(""),
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(JSON.parse(run.stdout).result, "two");
  assertEquals(model.requests.length, 2);
  assertStringIncludes(JSON.stringify(model.requests[0].messages), "first question");
  const second = JSON.stringify(model.requests[1].messages);
  assertStringIncludes(second, "what is in this picture?");
  assertStringIncludes(second, PNG);
});

Deno.test("stream-json input: an image for a text-only model is not sent, and stderr says so", async () => {
  await using project = await tempProject();
  await using model = startFakeModel([{ text: "ok" }]);
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } };
  const line = { type: "user", message: { role: "user", content: [{ type: "text", text: "look" }, image] } };
  const run = await runTern({
    cwd: project.root,
    args: ["--input-format", "stream-json", "--output", "json"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "fake-model", TERN_IMAGES: "off" },
    input: JSON.stringify(line) + "\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stderr, "1 image not sent: fake-model reads text only");
  assertEquals(JSON.stringify(model.requests[0].messages).includes(PNG), false);
});
