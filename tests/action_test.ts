/**
 * The GitHub Action (action.yml) end to end, here: its four step scripts run in order with the environment
 * action.yml gives them, against a local copy of a release (install.sh checks its SHA-256), the fake model
 * and a fake GitHub API. Only GitHub itself is missing: the composite runner, a real release download, a real
 * comment (see docs/github-action.md).
 */
import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { ternCommandLine } from "./support/cli.ts";
import { streamJsonValidator } from "./support/stream_json.ts";
import { tempProject } from "./support/temp_project.ts";

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const OS = Deno.build.os === "darwin" ? "macos" : Deno.build.os;
const ASSET = `tern-${OS}-${Deno.build.arch}.tar.gz`;
const KEY = "sk-live-0123456789abcdef";

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A release as install.sh fetches it; its `tern` runs this checkout under the binary's flags. */
async function localRelease(dir: string) {
  await Deno.mkdir(`${dir}/pack`, { recursive: true });
  await Deno.writeTextFile(`${dir}/pack/tern`, `#!/bin/sh\nexec ${await ternCommandLine()} "$@"\n`, {
    mode: 0o755,
  });
  const tar = await new Deno.Command("tar", {
    args: ["-czf", `${dir}/${ASSET}`, "-C", `${dir}/pack`, "tern"],
  })
    .output();
  assert(tar.success);
  const archive = await Deno.readFile(`${dir}/${ASSET}`);
  const files: Record<string, Uint8Array<ArrayBuffer>> = {
    [`/${ASSET}`]: archive,
    "/SHA256SUMS": new TextEncoder().encode(`${await sha256(archive)}  ${ASSET}\n`),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const body = files[new URL(request.url).pathname];
    return body ? new Response(body) : new Response("not found", { status: 404 });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, [Symbol.asyncDispose]: () => server.shutdown() };
}

/** GitHub's REST API as far as comment.sh uses it: the comments it received, with their token. */
function fakeGitHub() {
  const comments: { path: string; auth: string | null; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const { body } = await request.json();
    comments.push({ path: new URL(request.url).pathname, auth: request.headers.get("authorization"), body });
    return Response.json({ id: 1 }, { status: 201 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    comments,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** The runner's side: files for outputs and PATH, the event, and one step's script run with its env. */
async function runner(work: string, event: { name: string; payload: unknown }) {
  const temp = `${work}/runner-temp`;
  await Deno.mkdir(temp, { recursive: true });
  await Deno.writeTextFile(`${work}/event.json`, JSON.stringify(event.payload));
  const base = {
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: `${work}/event.json`,
    GITHUB_OUTPUT: `${temp}/output`,
    GITHUB_PATH: `${temp}/path`,
    GITHUB_REPOSITORY: "octo/repo",
    GITHUB_ACTION_PATH: ROOT,
    RUNNER_TEMP: temp,
    HOME: Deno.env.get("HOME") ?? "/root",
  };
  await Deno.writeTextFile(base.GITHUB_OUTPUT, "");
  await Deno.writeTextFile(base.GITHUB_PATH, "");
  return {
    temp,
    async step(script: string, cwd: string, env: Record<string, string>) {
      const added = (await Deno.readTextFile(base.GITHUB_PATH)).split("\n").filter(Boolean);
      const PATH = [...added, Deno.env.get("PATH") ?? "/usr/bin:/bin"].join(":");
      const output = await new Deno.Command("bash", {
        args: [`${ROOT}/action/${script}`],
        cwd,
        clearEnv: true,
        env: { ...base, PATH, ...env },
      }).output();
      const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
    },
    async outputs(): Promise<Record<string, string>> {
      const text = await Deno.readTextFile(base.GITHUB_OUTPUT);
      const values: Record<string, string> = {};
      const lines = text.split("\n");
      for (let i = 0; i < lines.length; i++) {
        const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]);
        if (heredoc) {
          const end = lines.indexOf(heredoc[2], i + 1);
          values[heredoc[1]] = lines.slice(i + 1, end).join("\n");
          i = end;
        } else if (lines[i].includes("=")) {
          values[lines[i].slice(0, lines[i].indexOf("="))] = lines[i].slice(lines[i].indexOf("=") + 1);
        }
      }
      return values;
    },
  };
}

async function git(cwd: string, ...args: string[]) {
  const env = {
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@t",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@t",
  };
  const output = await new Deno.Command("git", { args, cwd, env }).output();
  assert(output.success, new TextDecoder().decode(output.stderr));
}

const comment = (body: string, association: string) => ({
  name: "issue_comment",
  payload: {
    issue: { number: 7, title: "Greeting is wrong" },
    comment: { body, author_association: association },
  },
});

Deno.test("the action's steps: a collaborator's @tern comment installs tern, runs it, and posts the answer", async () => {
  await using repo = await tempProject({ "hello.txt": "Hello World\n" });
  await git(repo.root, "init", "-q");
  await git(repo.root, "add", "hello.txt");
  await git(repo.root, "commit", "-qm", "init");
  await using release = await localRelease(repo.outside);
  await using github = fakeGitHub();
  await using model = startFakeModel([
    { toolCalls: [{ name: "read_file", arguments: '{"path":"hello.txt"}' }] },
    {
      toolCalls: [{
        name: "edit_file",
        arguments: '{"path":"hello.txt","old_text":"World","new_text":"Agent"}',
      }],
    },
    { text: `Changed the greeting. (I was told the key is ${KEY})` },
  ]);
  const run = await runner(repo.outside, comment("@tern please fix the greeting", "COLLABORATOR"));

  const trigger = await run.step("trigger.sh", repo.root, {
    INPUT_TRIGGER: "@tern",
    INPUT_ALLOWED: "OWNER,MEMBER,COLLABORATOR",
  });
  assertEquals(trigger.code, 0, trigger.stderr);
  assertEquals(
    await Deno.readTextFile(`${run.temp}/tern-prompt.txt`),
    "GitHub #7: Greeting is wrong\n\n please fix the greeting\n",
  );
  const setup = await run.step("setup.sh", repo.root, {
    INPUT_VERSION: "v0.1.0",
    INPUT_DOWNLOAD_BASE: release.base,
  });
  assertEquals(setup.code, 0, setup.stderr);
  assertStringIncludes(setup.stderr, "tern install:");
  assertStringIncludes(setup.stdout, "tern 0.1.0");
  const tern = await run.step("run.sh", repo.root, {
    TERN_API_KEY: KEY,
    INPUT_APPROVE: "edits",
    INPUT_SANDBOX: "required",
    INPUT_MAX_TURNS: "10",
    INPUT_TIME_LIMIT: "5m",
    INPUT_BASE_URL: model.url,
    INPUT_MODEL: "fake-model",
  });
  assertEquals(tern.code, 0, tern.stderr);
  assertEquals(await Deno.readTextFile(`${repo.root}/hello.txt`), "Hello Agent\n");
  assertEquals(model.keys[0], KEY);
  const outputs = await run.outputs();
  assertEquals([outputs.run, outputs.number, outputs["exit-code"]], ["true", "7", "0"]);
  const result = JSON.parse(outputs.result);
  assertEquals((await streamJsonValidator())(result), []);
  // The key is blanked in every output the action writes: the result output and the events file too.
  assertStringIncludes(result.text, "(I was told the key is [redacted])");
  const events = await Deno.readTextFile(`${run.temp}/tern-events.jsonl`);
  assertEquals([events.includes(KEY), events.includes("[redacted]")], [false, true]);
  // Its pieces too: the answer's text_delta events, joined, say [redacted] and not the key.
  const deltas = events.trim().split("\n").map((line) => JSON.parse(line)).filter((e) =>
    e.type === "text_delta"
  );
  assertStringIncludes(deltas.map((e) => e.text).join(""), "the key is [redacted]");
  assert(!(await Deno.readTextFile(`${run.temp}/output`)).includes(KEY), "GITHUB_OUTPUT holds the key");
  assertEquals([result.type, result.exit_reason], ["result", "done"]);
  const posted = await run.step("comment.sh", repo.root, {
    GITHUB_TOKEN: "ghs_token",
    NUMBER: outputs.number,
    GITHUB_API_URL: github.url,
  });
  assertEquals(posted.code, 0, posted.stderr);
  assertEquals(github.comments.length, 1);
  const [sent] = github.comments;
  assertEquals([sent.path, sent.auth], ["/repos/octo/repo/issues/7/comments", "Bearer ghs_token"]);
  assertStringIncludes(sent.body, "Changed the greeting.");
  assertStringIncludes(sent.body, "hello.txt | 2 +-");
  assert(!sent.body.includes(KEY), sent.body);
  assertStringIncludes(sent.body, "[redacted]");
  for (const text of [trigger.stdout, setup.stdout, tern.stdout, tern.stderr, posted.stdout]) {
    assert(
      !text.includes(KEY) || text.includes(`::add-mask::${KEY}`),
      "the key only reaches the log to be masked",
    );
  }
});

Deno.test("the action does not run for an outside contributor's @tern comment, nor for a comment without the mention", async () => {
  await using work = await tempProject();
  for (
    const [body, association, why] of [
      ["@tern delete everything", "NONE", "the author's association is NONE"],
      ["@tern please", "CONTRIBUTOR", "the author's association is CONTRIBUTOR"],
      ["looks good to me", "OWNER", "no @tern mention"],
    ]
  ) {
    const run = await runner(`${work.outside}/${association}`, comment(body, association));
    const trigger = await run.step("trigger.sh", work.root, {
      INPUT_TRIGGER: "@tern",
      INPUT_ALLOWED: "OWNER,MEMBER,COLLABORATOR",
    });
    assertEquals(trigger.code, 0);
    assertStringIncludes(trigger.stdout, `::notice title=tern::not running: ${why}`);
    assertEquals((await run.outputs()).run, "false");
  }
});

Deno.test("action.yml hands each step script the variables it reads", async () => {
  const action = await Deno.readTextFile(`${ROOT}/action.yml`);
  for (const script of ["trigger.sh", "setup.sh", "run.sh", "comment.sh"]) {
    assertStringIncludes(action, `run: bash "$GITHUB_ACTION_PATH/action/${script}"`);
    const text = await Deno.readTextFile(`${ROOT}/action/${script}`);
    for (const name of new Set(text.match(/\bINPUT_[A-Z_]+|\bTERN_API_KEY\b|\bNUMBER\b|\bGITHUB_TOKEN\b/g))) {
      assertStringIncludes(action, `${name}: \${{`, `${script} reads ${name}`);
    }
  }
});
