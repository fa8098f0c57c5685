/** A narrow terminal (60 columns, under tmux): tern breaks its lines at words, the terminal never mid-word. */
import { assert, assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { ternCommandLine } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";
import { startTmux, tmux } from "../../support/tmux.ts";
import { testNeeding } from "../../support/requires.ts";

testNeeding(
  ["tmux"],
  "at 60 columns no line is cut mid-word: banner, status line, tool lines, markdown",
  async () => {
    await using project = await tempProject({ "src/components/navigation/sidebar_menu_items.ts": "x\n" });
    await using model = await startFakeModel([
      {
        toolCalls: [{
          name: "read_file",
          arguments: '{"path":"src/components/navigation/sidebar_menu_items.ts"}',
        }],
      },
      {
        text:
          "## The sidebar\n\nThe navigation sidebar renders its menu items from a single list, so adding " +
          "an entry means editing exactly one array and nothing else whatsoever.\n",
      },
    ]);
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
    await using tern = await startTmux(`cd ${project.root} && env ${env} ${await ternCommandLine()}`, {
      width: 60,
    });
    await tern.waitFor("›");
    await tern.send("explain the sidebar menu items file", "Enter");
    await tern.waitFor("nothing else whatsoever.");
    const joined = await tern.waitFor("fake-model · context"); // the status line
    assertStringIncludes(joined, "⏺ read_file");
    // tmux joins only the rows it wrapped itself: the same count both ways means no line outgrew 60 columns.
    const rows = (await tmux("capture-pane", "-p", "-t", tern.name, "-S", "-")).text;
    const wrapped = (await tmux("capture-pane", "-p", "-J", "-t", tern.name, "-S", "-")).text;
    assertEquals(rows.split("\n").length, wrapped.split("\n").length, rows);
    assert(rows.split("\n").every((row) => row.length <= 60), rows);
    await tern.send("C-d");
    assert(await tern.waitForExit(), "tern exits on Ctrl-D");
  },
);
