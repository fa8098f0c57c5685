/**
 * The diagnostics service against real language servers from npm (typescript-language-server with
 * typescript, and pyright: tests/support/lsp_servers.ts); where `.ci/run` could not install them the tests
 * are skipped and say so. The wait is generous: a cold server on a loaded machine is slow, and the
 * tests are about what the server says, not how fast.
 */
import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { tempProject } from "../../support/temp_project.ts";
import { LSP_BIN, serverTest } from "../../support/lsp_servers.ts";
import { LspDiagnostics } from "../../../src/tools/lsp/diagnostics.ts";
import { lspSettings } from "../../../src/tools/lsp/servers.ts";
import { outcomeText } from "../../../src/tools/lsp/report.ts";
import type { SandboxMode } from "../../../src/config/settings.ts";

function service(root: string, entry: Record<string, unknown>, sandbox: SandboxMode, trusted = false) {
  return new LspDiagnostics({ root, sandbox, trusted, settings: lspSettings(entry), waitMs: 120_000 });
}

const GOOD_TS = "export const count: number = 1;\n";
const BAD_TS = 'export const count: number = "one";\n';

serverTest(
  "an edit that brings a type error gets it back from typescript-language-server, and its fix says so",
  "typescript-language-server",
  true,
  async () => {
    await using project = await tempProject({ "src/a.ts": GOOD_TS });
    const path = `${project.root}/src/a.ts`;
    const lsp = service(project.root, {
      typescript: { command: [`${LSP_BIN}/typescript-language-server`, "--stdio"] },
    }, "auto");
    try {
      const broke = await lsp.after(path, { before: GOOD_TS, after: BAD_TS });
      assertEquals(broke?.state, "checked", JSON.stringify(broke));
      if (broke?.state !== "checked") return;
      assertEquals(broke.introduced.map((item) => [item.line, item.code, item.source]), [[
        0,
        "2322",
        "typescript",
      ]]);
      assertStringIncludes(
        outcomeText(broke, "src/a.ts"),
        `Diagnostics (typescript): 1 new error:\n  src/a.ts:1:14: Type 'string' is not assignable to type 'number'.`,
      );
      const fixed = await lsp.after(path, { before: BAD_TS, after: GOOD_TS });
      assertEquals(fixed, { state: "checked", server: "typescript", introduced: [], fixed: 1, errors: 0 });
      assertEquals(
        outcomeText(fixed!, "src/a.ts"),
        "\nDiagnostics (typescript): no new problems; 1 error fixed.",
      );
      const [view] = lsp.view();
      assertEquals([view.name, view.state, view.files.map((file) => file.path)], ["typescript", "ready", [
        "src/a.ts",
      ]]);
      assertStringIncludes(view.runsIn ?? "", "strict sandbox");
    } finally {
      await lsp.close();
    }
  },
);

serverTest(
  "an error that was there before the edit is not new: pyright's report counts only what the edit brought",
  "pyright-langserver",
  false,
  async () => {
    const before = 'x: int = "a"\ny: int = 2\n';
    const after = 'x: int = "a"\ny: int = 2\nz: str = 3\n';
    await using project = await tempProject({ "m.py": before });
    const path = `${project.root}/m.py`;
    const lsp = service(
      project.root,
      { python: { command: [`${LSP_BIN}/pyright-langserver`, "--stdio"] } },
      "off",
      true,
    );
    try {
      const outcome = await lsp.after(path, { before, after });
      assertEquals(outcome?.state, "checked", JSON.stringify(outcome));
      if (outcome?.state !== "checked") return;
      assertEquals([outcome.introduced.map((item) => item.line), outcome.fixed, outcome.errors], [[2], 0, 2]);
      assertStringIncludes(outcomeText(outcome, "m.py"), "Diagnostics (python): 1 new error:\n  m.py:3:10: ");
      const same = await lsp.after(path, { before: after, after: after.replace("z: str = 3\n", "") });
      assertEquals(
        outcomeText(same!, "m.py"),
        "\nDiagnostics (python): no new problems; 1 error fixed (1 remains).",
      );
    } finally {
      await lsp.close();
    }
  },
);

serverTest(
  "a new file (write_file creating it) is checked without a baseline: its errors are all new",
  "pyright-langserver",
  false,
  async () => {
    await using project = await tempProject();
    const lsp = service(
      project.root,
      { python: { command: [`${LSP_BIN}/pyright-langserver`, "--stdio"] } },
      "off",
      true,
    );
    try {
      const outcome = await lsp.after(`${project.root}/new.py`, { before: null, after: "n: int = 'x'\n" });
      assertEquals(outcome?.state === "checked" && outcome.introduced.length, 1, JSON.stringify(outcome));
    } finally {
      await lsp.close();
    }
  },
);
