import { assertEquals } from "../../support/assert.ts";
import { KNOWN_SERVERS, languageId, lspSettings, serversFor } from "../../../src/tools/lsp/servers.ts";

Deno.test("lspSettings() with nothing set is the known servers; false turns all off", () => {
  assertEquals(lspSettings(undefined), { enabled: true, servers: [...KNOWN_SERVERS], problems: [] });
  assertEquals(lspSettings(false).enabled, false);
  assertEquals(lspSettings(undefined, false).enabled, false);
});

Deno.test("lspSettings() replaces a known server (its extensions kept), turns one off, and adds a new one first", () => {
  const settings = lspSettings(
    { python: { command: ["basedpyright-langserver", "--stdio"] }, go: false },
    { zig: { command: ["zls"], extensions: ["zig"] } },
  );
  assertEquals(serversFor(settings.servers, "a.py").map((s) => [s.name, s.command[0], s.source]), [
    ["python", "basedpyright-langserver", "user"],
  ]);
  assertEquals(serversFor(settings.servers, "main.go"), []);
  assertEquals(serversFor(settings.servers, "x.zig").map((s) => [s.name, s.extensions, s.source]), [
    ["zig", [".zig"], "project"],
  ]);
});

Deno.test("lspSettings() skips a bad entry, saying what to write", () => {
  const settings = lspSettings({ a: { command: "pyright" }, b: { command: ["x"] }, c: { command: [] } }, []);
  assertEquals(settings.problems, [
    'lsp.a: give "command": ["program", "arg", ...] and "extensions": [".ext", ...] (or false)',
    'lsp.b: "extensions" is required for a server tern does not know',
    'lsp.c: give "command": ["program", "arg", ...] and "extensions": [".ext", ...] (or false)',
    '"lsp" should be false or an object of servers',
  ]);
  assertEquals(settings.servers, [...KNOWN_SERVERS]);
});

Deno.test("serversFor() prefers deno for TypeScript only where the root says Deno, and languageId() names files", () => {
  assertEquals(serversFor(KNOWN_SERVERS, "src/A.TS").map((s) => [s.name, s.markers]), [
    ["deno", ["deno.json", "deno.jsonc"]],
    ["typescript", undefined],
  ]);
  assertEquals(serversFor(KNOWN_SERVERS, "Makefile"), []);
  assertEquals(["a.tsx", "b.mjs", "c.py", "d.hpp", "e.rs"].map(languageId), [
    "typescriptreact",
    "javascript",
    "python",
    "cpp",
    "rust",
  ]);
});
