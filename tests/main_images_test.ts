/**
 * Images end to end: the real CLI (the REPL on piped input) against the fake model on each wire. A
 * `@shot.png` in the prompt and a read_file of it reach the request body as that wire's image part; a model
 * that reads text only gets words instead of bytes; an image over 5 MB is refused.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./support/assert.ts";
import { type ScriptedTurn, startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";

/** A 1×1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const SCRIPT: ScriptedTurn[] = [
  { toolCalls: [{ id: "call_img", name: "read_file", arguments: '{"path":"shot.png"}' }] },
  { text: "A single pixel." },
];

async function projectWithImage(extra: Record<string, Uint8Array> = {}) {
  const project = await tempProject({});
  await Deno.writeFile(`${project.root}/shot.png`, Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)));
  for (const [name, bytes] of Object.entries(extra)) await Deno.writeFile(`${project.root}/${name}`, bytes);
  return project;
}

/** The image parts of a request body, as [where, base64] pairs, whatever the wire. */
function imagesIn(body: Record<string, unknown>): string[] {
  const found: string[] = [];
  JSON.stringify(body, (_key, value) => {
    if (value?.type === "image_url") found.push(value.image_url.url);
    if (value?.type === "input_image") found.push(value.image_url);
    if (value?.type === "image") found.push(`data:${value.source.media_type};base64,${value.source.data}`);
    return value;
  });
  return found;
}

for (const api of ["chat", "responses", "anthropic"] as const) {
  Deno.test(`tern (REPL) --api ${api}: @shot.png and read_file of it reach the body as the wire's image`, async () => {
    await using project = await projectWithImage();
    await using model = startFakeModel(SCRIPT);
    const run = await runTern({
      cwd: project.root,
      args: ["--api", api],
      env: {
        TERN_BASE_URL: api === "anthropic" ? model.root : model.url,
        TERN_API_KEY: "k",
        TERN_MODEL: "fake-model",
        // The Anthropic wire reads images by default; a custom chat or Responses model is told it does.
        ...api === "anthropic" ? {} : { TERN_IMAGES: "on" },
      },
      input: "what is in @shot.png?\n",
    });
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(run.stdout, "attached shot.png (PNG image, 1×1 pixels, 70 bytes)");
    assertStringIncludes(run.stdout, "A single pixel.");
    const url = `data:image/png;base64,${PNG}`;
    // The prompt's image, then (next request) the same prompt's and the tool result's.
    assertEquals(imagesIn(model.requests[0]), [url]);
    assertEquals(imagesIn(model.requests[1]), [url, url]);
    const second = JSON.stringify(model.requests[1]);
    assertStringIncludes(second, "shot.png: PNG image, 1×1 pixels, 70 bytes; the image is attached.");
    if (api === "anthropic") {
      // Inside the tool_result itself, after its text.
      assertMatch(
        second,
        /"type":"tool_result","tool_use_id":"call_img","content":\[\{"type":"text"[^\]]*\{"type":"image"/,
      );
    } else {
      // After the results, in a user message that names the call.
      assertStringIncludes(second, "[the image shot.png returned by read_file (call call_img)]");
    }
  });
}

Deno.test("tern -p with a text-only model: read_file of an image says so and no bytes are sent", async () => {
  await using project = await projectWithImage();
  await using model = startFakeModel(SCRIPT);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "what is in shot.png?"],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "deepseek-chat" },
  });
  assertEquals(run.code, 0, run.stderr);
  const second = JSON.stringify(model.requests[1]);
  assertStringIncludes(second, "The current model reads text only, so the image cannot be shown to it");
  assert(!second.includes(PNG.slice(0, 40)), "no image bytes in a text-only request");
  assertEquals(imagesIn(model.requests[1]), []);
});

Deno.test("tern (REPL) with a text-only model leaves @shot.png out and says why", async () => {
  await using project = await projectWithImage();
  await using model = startFakeModel([{ text: "ok" }]);
  const run = await runTern({
    cwd: project.root,
    args: [],
    env: { TERN_BASE_URL: model.url, TERN_API_KEY: "k", TERN_MODEL: "deepseek-chat" },
    input: "look at @shot.png\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "not attached @shot.png: deepseek-chat reads text only");
  assertEquals(imagesIn(model.requests[0]), []);
});

Deno.test("tern -p: read_file of an image over 5 MB is refused in words the model can act on", async () => {
  const big = new Uint8Array(5 * 1024 * 1024 + 1);
  big.set(Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)));
  await using project = await projectWithImage({ "big.png": big });
  await using model = startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"big.png"}' }] },
    { text: "Too big." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "look at big.png", "--api", "anthropic"],
    env: { TERN_BASE_URL: model.root, TERN_API_KEY: "k", TERN_MODEL: "fake-model" },
  });
  assertEquals(run.code, 0, run.stderr);
  const second = JSON.stringify(model.requests[1]);
  assertStringIncludes(
    second,
    '\\"big.png\\": the image is 5,242,881 bytes; images over 5 MB (5,242,880 bytes) are not sent',
  );
  assertEquals(imagesIn(model.requests[1]), []);
});

Deno.test("tern (REPL): after /model moves to a text-only model, the earlier image goes as a note, not bytes", async () => {
  await using project = await projectWithImage();
  await using model = startFakeModel([{ text: "A pixel." }, { text: "Still a pixel." }]);
  const run = await runTern({
    cwd: project.root,
    args: ["--api", "anthropic"],
    env: { TERN_BASE_URL: model.root, TERN_API_KEY: "k", TERN_MODEL: "claude-sonnet-4-5" },
    input: "what is in @shot.png?\n/model deepseek-chat\nand now?\n",
  });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(imagesIn(model.requests[0]).length, 1);
  const second = JSON.stringify(model.requests[1]);
  assertEquals(imagesIn(model.requests[1]), []);
  assertStringIncludes(
    second,
    "what is in @shot.png?\\n[image shot.png not sent: this model reads text only]",
  );
});

Deno.test("tern -c: a resumed session still shows the model the image it read before", async () => {
  await using project = await projectWithImage();
  await using model = startFakeModel([...SCRIPT, { text: "Still one pixel." }]);
  const env = {
    TERN_BASE_URL: model.root,
    TERN_API_KEY: "k",
    TERN_MODEL: "fake-model",
    TERN_API: "anthropic",
  };
  const first = await runTern({ cwd: project.root, args: ["-p", "what is in shot.png?"], env });
  assertEquals(first.code, 0, first.stderr);
  const again = await runTern({ cwd: project.root, args: ["-c", "-p", "and now?"], env });
  assertEquals(again.code, 0, again.stderr);
  assertEquals(imagesIn(model.requests[2]), [`data:image/png;base64,${PNG}`]);
});
