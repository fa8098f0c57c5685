import { assertEquals } from "../../support/assert.ts";
import { DEFAULT_NOTIFY_AFTER_MS, notifySettings } from "../../../src/cli/notify/notify_settings.ts";

const terminal = { isTerminal: true };

Deno.test("notifySettings() defaults to the bell and OSC 9 after 30 s turns", () => {
  assertEquals(notifySettings({ TERM: "xterm-256color" }, terminal), {
    settings: {
      channels: ["bell", "osc9"],
      afterMs: DEFAULT_NOTIFY_AFTER_MS,
      command: undefined,
      tmux: false,
    },
    warnings: [],
  });
});

Deno.test("notifySettings() takes TERN_NOTIFY channels, TERN_NOTIFY_AFTER, the command and tmux", () => {
  const env = { TERN_NOTIFY: "osc777, bell", TERN_NOTIFY_AFTER: "2m", TMUX: "/tmp/tmux-0/default,1,0" };
  assertEquals(notifySettings(env, { ...terminal, command: " notify-send tern " }).settings, {
    channels: ["osc777", "bell"],
    afterMs: 120_000,
    command: "notify-send tern",
    tmux: true,
  });
});

Deno.test("notifySettings() sends no escapes with NO_COLOR, TERM=dumb, off, or without a terminal", () => {
  const none = (env: Record<string, string>, isTerminal = true) =>
    notifySettings(env, { isTerminal, command: "x" }).settings.channels;
  assertEquals(none({ NO_COLOR: "1" }), []);
  assertEquals(none({ TERM: "dumb" }), []);
  assertEquals(none({ TERN_NOTIFY: "off" }), []);
  assertEquals(none({}, false), []);
  // The command is not an escape: it stays.
  assertEquals(notifySettings({ NO_COLOR: "1" }, { isTerminal: true, command: "x" }).settings.command, "x");
});

Deno.test("notifySettings() names a channel or duration it cannot use, and keeps the default", () => {
  const { settings, warnings } = notifySettings(
    { TERN_NOTIFY: "bell,popup", TERN_NOTIFY_AFTER: "soon" },
    terminal,
  );
  assertEquals([settings.channels, settings.afterMs], [["bell", "osc9"], DEFAULT_NOTIFY_AFTER_MS]);
  assertEquals(warnings, [
    "TERN_NOTIFY=bell,popup: popup is not one of off, bell, osc9, osc777",
    "TERN_NOTIFY_AFTER=soon is not a duration such as 30s or 2m",
  ]);
});
