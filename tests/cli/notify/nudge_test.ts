import { assertEquals } from "../../support/assert.ts";
import { FocusTracker } from "../../../src/cli/notify/focus.ts";
import type { NotifySettings } from "../../../src/cli/notify/notify_settings.ts";
import { type NudgeKind, Nudger } from "../../../src/cli/notify/nudge.ts";
import { tempProject } from "../../support/temp_project.ts";

function setup(settings: Partial<NotifySettings>, focus: "in" | "out" | "unknown", root = "/tmp") {
  const tracker = new FocusTracker();
  if (focus !== "unknown") tracker.feed(focus === "in" ? "\x1b[I" : "\x1b[O");
  const written: string[] = [];
  const heard: [NudgeKind, string][] = [];
  const warnings: string[] = [];
  const nudger = new Nudger({ channels: ["bell", "osc9"], afterMs: 1000, tmux: false, ...settings }, {
    focus: tracker,
    write: (text) => written.push(text),
    hooks: (kind, message) => Promise.resolve(void heard.push([kind, message])),
    warn: (message) => warnings.push(message),
    root,
  });
  return { nudger, written, heard, warnings };
}

Deno.test("Nudger rings and sends OSC 9 when unfocused, and the hooks hear it", () => {
  const { nudger, written, heard } = setup({}, "out");
  nudger.approvalWaits("write_file a.txt");
  assertEquals(written, ["\x07\x1b]9;tern needs your approval: write_file a.txt\x07"]);
  assertEquals(heard, [["permission_prompt", "tern needs your approval: write_file a.txt"]]);
});

Deno.test("Nudger sends nothing to a focused terminal or one that never reported, but the hooks hear it", () => {
  for (const focus of ["in", "unknown"] as const) {
    const { nudger, written, heard } = setup({}, focus);
    nudger.approvalWaits("x");
    assertEquals([written, heard.length], [[], 1]);
  }
});

Deno.test("Nudger nudges at the end of a turn only from the threshold on", () => {
  const { nudger, written, heard } = setup({ channels: ["osc777"] }, "out");
  nudger.turnEnded(999, "short");
  assertEquals(heard, []);
  nudger.turnEnded(61_000, "All tests pass.\nDetails follow.");
  assertEquals(written, ["\x1b]777;notify;tern;tern finished after 61 s: All tests pass.\x07"]);
  assertEquals(heard, [["idle_prompt", "tern finished after 61 s: All tests pass."]]);
});

Deno.test("Nudger wraps OSC in tmux's passthrough, and strips control characters from the message", () => {
  const { nudger, written } = setup({ channels: ["osc9"], tmux: true }, "out");
  nudger.approvalWaits("execute_command echo \x1b]9;forged\x07\nrm -rf /");
  assertEquals(written, [
    "\x1bPtmux;\x1b\x1b]9;tern needs your approval: execute_command echo ]9;forged rm -rf /\x07\x1b\\",
  ]);
});

Deno.test("Nudger runs --notify-command with the kind and message, and says when it fails", async () => {
  await using project = await tempProject({});
  const command = 'printf "%s|%s|" "$TERN_NOTIFY_TYPE" "$TERN_NOTIFY_MESSAGE" >> out.txt; cat >> out.txt';
  const { nudger } = setup({ command, channels: [] }, "out", project.root);
  nudger.approvalWaits("x");
  await nudger.settle();
  assertEquals(
    await Deno.readTextFile(`${project.root}/out.txt`),
    'permission_prompt|tern needs your approval: x|{"notification_type":"permission_prompt",' +
      '"message":"tern needs your approval: x"}',
  );
  const failing = setup({ command: "echo nope >&2; exit 4" }, "out", project.root);
  failing.nudger.turnEnded(5000, "done");
  await failing.nudger.settle();
  assertEquals(failing.warnings, ["--notify-command failed with exit code 4: nope"]);
});
