/**
 * The nudge when tern needs you, on a real terminal (tmux): focus reporting turned on and off, the bell and
 * OSC 9 (through tmux's passthrough) only while the terminal reports it lost the focus, `--notify-command`
 * likewise, the Notification hook every time. What tern writes is read raw with `tmux pipe-pane`; the
 * focus events are the bytes a terminal sends (ESC [ O, ESC [ I), typed with `send-keys -H`.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { eventually } from "../support/processes.ts";
import { testNeeding } from "../support/requires.ts";
import { tempProject } from "../support/temp_project.ts";
import { startTmux, tmux } from "../support/tmux.ts";
import { writeOwnSettings } from "../../src/agent/state/own_settings.ts";

const OSC9 = (message: string) => `\x1bPtmux;\x1b\x1b]9;${message}\x07\x1b\\`;

async function text(path: string): Promise<string> {
  return await Deno.readTextFile(path).catch(() => "");
}

testNeeding(
  ["tmux"],
  "REPL: an approval and a long turn ring and notify only while unfocused; the Notification hook hears each",
  async () => {
    await using project = await tempProject({});
    const hook = { type: "command", command: "cat >> hook.jsonl; echo >> hook.jsonl" };
    const settings = {
      hooks: { Notification: [{ matcher: "permission_prompt|idle_prompt", hooks: [hook] }] },
    };
    writeOwnSettings(project.root, settings); // the user's own settings, sealed as tern writes them
    const write = (path: string) => ({
      toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path, content: "x\n" }) }],
    });
    await using model = await startFakeModel([write("a.txt"), { text: "Wrote a.txt." }, write("b.txt"), {
      text: "Wrote b.txt.",
    }]);
    const raw = join(project.root, "..", `${crypto.randomUUID()}.raw`);
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model TERN_NOTIFY_AFTER=0`;
    const notify = `--notify-command 'echo "$TERN_NOTIFY_TYPE: $TERN_NOTIFY_MESSAGE" >> cmd.log'`;
    await using tern = await startTmux(
      `cd ${project.root} && env ${env} ${await ternCommandLine()} ${notify}`,
    );
    try {
      await tmux("pipe-pane", "-o", "-t", tern.name, `cat >> '${raw}'`);
      await tern.waitFor("ask ›");
      assert(await eventually(async () => (await text(raw)).includes("\x1b[?1004h")), "focus reporting on");
      await tern.send("-H", "1b", "5b", "4f"); // the terminal lost the focus
      await tern.send("write a", "Enter");
      await tern.waitFor("Allow write_file on a.txt");
      const asked = "tern needs your approval: write_file a.txt";
      assert(
        await eventually(async () => (await text(raw)).includes(`\x07${OSC9(asked)}`)),
        "bell and OSC 9",
      );
      await tern.send("y", "Enter");
      await tern.waitFor("Wrote a.txt.");
      // The turn's length in whole seconds depends on the machine's load: read it from what tern wrote.
      const finished = /tern finished after \d+ s: Wrote a\.txt\./;
      assert(await eventually(async () => finished.test(await text(raw))), "a long turn's end");
      const done = finished.exec(await text(raw))![0];
      assertStringIncludes(await text(raw), OSC9(done));
      assert(
        await eventually(async () => (await text(join(project.root, "cmd.log"))).split("\n").length === 3),
      );
      assertEquals(
        await text(join(project.root, "cmd.log")),
        `permission_prompt: ${asked}\nidle_prompt: ${done}\n`,
      );
      // Focused again: no bell, no command, but the hook still hears of it.
      await tern.waitFor("ask ›", { count: 2 });
      await tern.send("-H", "1b", "5b", "49");
      await tern.send("write b", "Enter");
      await tern.waitFor("Allow write_file on b.txt");
      await tern.send("y", "Enter");
      await tern.waitFor("Wrote b.txt.");
      const hookLines = async () => (await text(join(project.root, "hook.jsonl"))).trim().split("\n");
      assert(await eventually(async () => (await hookLines()).length === 4), "the hook hears every nudge");
      const events = (await hookLines()).map((line) => JSON.parse(line));
      assertEquals(events.map((event) => [event.hook_event_name, event.notification_type]), [
        ["Notification", "permission_prompt"],
        ["Notification", "idle_prompt"],
        ["Notification", "permission_prompt"],
        ["Notification", "idle_prompt"],
      ]);
      assertEquals(events[2].message, "tern needs your approval: write_file b.txt");
      const written = await text(raw);
      assertEquals(written.split("\x07").length - 1, 4, "two nudges, each a bell and an OSC 9 ending in BEL");
      assertEquals(
        await text(join(project.root, "cmd.log")),
        `permission_prompt: ${asked}\nidle_prompt: ${done}\n`,
      );
      await tern.send("C-d");
      assert(await tern.waitForExit(), "tern exits on Ctrl-D");
      assertStringIncludes(await text(raw), "\x1b[?1004l");
    } finally {
      await Deno.remove(raw).catch(() => {});
    }
  },
);

testNeeding(
  ["tmux"],
  "REPL with NO_COLOR and no --notify-command turns no focus reporting on and rings nothing",
  async () => {
    await using project = await tempProject({});
    await using model = await startFakeModel([{ text: "Done." }]);
    const raw = join(project.root, "..", `${crypto.randomUUID()}.raw`);
    const env =
      `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model TERN_NOTIFY_AFTER=0 NO_COLOR=1`;
    await using tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()}`);
    try {
      await tmux("pipe-pane", "-o", "-t", tern.name, `cat >> '${raw}'`);
      await tern.waitFor("ask ›");
      await tern.send("-H", "1b", "5b", "4f");
      await tern.send("hello", "Enter");
      await tern.waitFor("Done.");
      await tern.send("C-d");
      assert(await tern.waitForExit(), "tern exits on Ctrl-D");
      const written = await text(raw);
      assertStringIncludes(written, "Done."); // the pipe saw what tern wrote
      assert(!written.includes("\x1b[?1004h") && !written.includes("\x07"), "no escape of the nudge");
    } finally {
      await Deno.remove(raw).catch(() => {});
    }
  },
);
