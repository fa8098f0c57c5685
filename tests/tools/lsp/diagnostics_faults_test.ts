/**
 * The diagnostics service against a fake language server (tests/support/fake_lsp_server.ts, a real process)
 * that publishes what a test's text asks for, or hangs, crashes or breaks the framing; and the cases where
 * no server may run at all.
 */
import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { tempProject } from "../../support/temp_project.ts";
import { LspDiagnostics } from "../../../src/tools/lsp/diagnostics.ts";
import { lspSettings } from "../../../src/tools/lsp/servers.ts";
import type { SandboxMode } from "../../../src/config/settings.ts";
import { fileURLToPath } from "node:url";

const FAKE = fileURLToPath(new URL("../../support/fake_lsp_server.ts", import.meta.url));

function service(
  root: string,
  options: {
    args?: string[];
    waitMs?: number;
    sandbox?: SandboxMode;
    trusted?: boolean;
    command?: string[];
  } = {},
) {
  const command = options.command ?? ["deno", "run", "--quiet", FAKE, ...options.args ?? []];
  return new LspDiagnostics({
    root,
    sandbox: options.sandbox ?? "off",
    trusted: options.trusted ?? true,
    settings: lspSettings({ fake: { command, extensions: [".fk"] } }),
    waitMs: options.waitMs ?? 60_000,
  });
}

Deno.test("after() reports the errors an edit brought and the ones it removed, by message, not position", async () => {
  await using project = await tempProject();
  const path = `${project.root}/a.fk`;
  const lsp = service(project.root);
  try {
    const before = "one ERROR: old\ntwo\n";
    const after = "zero\none ERROR: old\ntwo ERROR: new\n";
    assertEquals(await lsp.after(path, { before, after }), {
      state: "checked",
      server: "fake",
      introduced: [{ line: 2, character: 4, severity: 1, message: "new", code: "E1", source: "fake" }],
      fixed: 0,
      errors: 2,
    });
    assertEquals(await lsp.after(path, { before: after, after: "clean\n" }), {
      state: "checked",
      server: "fake",
      introduced: [],
      fixed: 2,
      errors: 0,
    });
  } finally {
    await lsp.close();
  }
});

Deno.test("after() takes a server's publish without a version as the text it was sent last", async () => {
  await using project = await tempProject();
  const lsp = service(project.root, { args: ["--no-version"] });
  try {
    const outcome = await lsp.after(`${project.root}/a.fk`, { before: "fine\n", after: "x ERROR: bad\n" });
    assertEquals(outcome?.state === "checked" && outcome.introduced.map((item) => item.message), ["bad"]);
  } finally {
    await lsp.close();
  }
});

Deno.test("a server that offers textDocument/diagnostic is asked, and its pushes are not taken for answers", async () => {
  await using project = await tempProject();
  const path = `${project.root}/a.fk`;
  const lsp = service(project.root, { args: ["--pull"] });
  try {
    const outcome = await lsp.after(path, {
      before: "x ERROR: old\n",
      after: "x ERROR: old\ny ERROR: new\n",
    });
    assertEquals(
      outcome?.state === "checked" && [outcome.introduced.map((item) => item.message), outcome.errors],
      [
        ["new"],
        2,
      ],
    );
    assertEquals(lsp.view()[0].files[0].diagnostics.length, 2);
  } finally {
    await lsp.close();
  }
});

Deno.test("a server that never answers costs an edit the bound at most, and the result says so", async () => {
  await using project = await tempProject();
  const lsp = service(project.root, { waitMs: 300 });
  try {
    const outcome = await lsp.after(`${project.root}/a.fk`, { before: "fine\n", after: "HANG\n" });
    assertEquals(outcome, {
      state: "not_ready",
      server: "fake",
      why: "no answer within 300 ms; the server may still be starting",
    });
  } finally {
    await lsp.close();
  }
});

Deno.test("a server that dies is restarted once; dying again it stays down, saying what it said", async () => {
  await using project = await tempProject();
  const path = `${project.root}/a.fk`;
  const lsp = service(project.root);
  try {
    const crashed = await lsp.after(path, { before: "fine\n", after: "CRASH\n" });
    assertEquals(crashed, {
      state: "not_ready",
      server: "fake",
      why: "the server stopped and is restarting",
    });
    const again = await lsp.after(path, { before: "fine\n", after: "x ERROR: back\n" });
    assertEquals(again?.state === "checked" && again.introduced.length, 1, JSON.stringify(again));
    assertEquals(lsp.view()[0].restarts, 1);
    const down = await lsp.after(path, { before: "fine\n", after: "CRASH\n" });
    assertEquals(down?.state, "not_ready");
    assertStringIncludes(
      down?.state === "not_ready" ? down.why : "",
      "the server stopped (it said: fake server: crashing as the document asked); it stays down",
    );
    assertEquals(lsp.view()[0].state, "failed");
    // Said once: the next edits of the language cost nothing.
    assertEquals((await lsp.after(path, { before: "a\n", after: "b\n" }))?.state, "not_ready");
    assertEquals(await lsp.after(path, { before: "b\n", after: "c\n" }), undefined);
  } finally {
    await lsp.close();
  }
});

Deno.test("a frame without Content-Length ends the connection like a death: the server is restarted", async () => {
  await using project = await tempProject();
  const lsp = service(project.root);
  try {
    const broken = await lsp.after(`${project.root}/a.fk`, { before: "fine\n", after: "GARBAGE\n" });
    assertEquals(broken?.state, "not_ready");
    const again = await lsp.after(`${project.root}/a.fk`, { before: "fine\n", after: "ok\n" });
    assertEquals(again?.state, "checked", JSON.stringify(again));
  } finally {
    await lsp.close();
  }
});

Deno.test("a file no server checks, or whose server is not installed, costs nothing: no server starts", async () => {
  await using project = await tempProject();
  const lsp = service(project.root, { command: ["tern-test-no-such-language-server"] });
  try {
    assertEquals(await lsp.after(`${project.root}/notes.md`, { before: "a", after: "b" }), undefined);
    assertEquals(await lsp.after(`${project.root}/a.fk`, { before: "a", after: "b" }), undefined);
    assertEquals(await lsp.after(`${project.root}/b.fk`, { before: "a", after: "b" }), undefined);
    assertEquals(lsp.view(), []);
  } finally {
    await lsp.close();
  }
});

Deno.test("an untrusted project's server does not start where nothing can confine it, and says why once", async () => {
  await using project = await tempProject();
  const lsp = service(project.root, { sandbox: "off", trusted: false });
  try {
    const outcome = await lsp.after(`${project.root}/a.fk`, { before: "a\n", after: "b\n" });
    assertEquals(outcome, {
      state: "not_ready",
      server: "fake",
      why:
        "the server could not run: NOT sandboxed (--sandbox off): full access to files and network; a server " +
        "of a project you have not trusted runs only in the sandbox",
    });
    assertEquals(await lsp.after(`${project.root}/a.fk`, { before: "b\n", after: "c\n" }), undefined);
  } finally {
    await lsp.close();
  }
});

Deno.test("a server program inside the project runs only once the project is trusted", async () => {
  await using project = await tempProject({ "bin/lsp": "#!/bin/sh\necho planted > planted.txt\n" });
  await Deno.chmod(`${project.root}/bin/lsp`, 0o755);
  const lsp = service(project.root, { sandbox: "off", trusted: false, command: ["bin/lsp"] });
  try {
    assertEquals(await lsp.after(`${project.root}/a.fk`, { before: "a\n", after: "b\n" }), undefined);
    assertEquals(lsp.skipped, ["fake: bin/lsp is the project's program; it runs once you trust the project"]);
    assertEquals(await Deno.stat(`${project.root}/planted.txt`).then(() => true, () => false), false);
  } finally {
    await lsp.close();
  }
});

Deno.test("close() stops the servers, and no edit starts one afterwards", async () => {
  await using project = await tempProject();
  const lsp = service(project.root);
  const outcome = await lsp.after(`${project.root}/a.fk`, { before: "a\n", after: "b\n" });
  assertEquals(outcome?.state, "checked");
  await lsp.close();
  assertEquals(lsp.view()[0].state, "closed");
  assertEquals(await lsp.after(`${project.root}/a.fk`, { before: "b\n", after: "c\n" }), undefined);
});
