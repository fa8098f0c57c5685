/**
 * `/rewind` under tmux: three turns, the user's own edit between the second and the third, then back to
 * before the first: the turns are a menu, the files of every turn come back, the user's edit is named and
 * kept when told, and the conversation the model sees next starts afresh.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { startFakeModel } from "../support/fake_model_server.ts";
import { ternCommandLine } from "../support/cli.ts";
import { testNeeding } from "../support/requires.ts";
import { tempProject } from "../support/temp_project.ts";
import { pause, startTmux } from "../support/tmux.ts";

const run = (command: string) => ({
  toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command }) }],
});

testNeeding(
  ["tmux", "git"],
  "/rewind goes back to before any turn, naming the user's own edit first",
  async () => {
    await using project = await tempProject({ "notes.txt": "v1\n" });
    await using model = await startFakeModel([
      run("echo v2 > notes.txt"),
      { text: "Notes at v2." },
      run("echo made > made.txt"),
      { text: "Made made.txt." },
      run("echo extra > extra.txt"),
      { text: "Added extra.txt." },
      { text: "A fresh start." },
    ]);
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
    await using tern = await startTmux(
      `cd ${project.root} && env ${env} ${await ternCommandLine()} --approve all`,
    );
    await tern.waitFor("all ›");
    await tern.send("first turn", "Enter");
    await tern.waitFor("Notes at v2.");
    await tern.waitFor("all ›", { count: 2 });
    await tern.send("second turn", "Enter");
    await tern.waitFor("Made made.txt.");
    await tern.waitFor("all ›", { count: 3 });
    await pause(2000); // the end-of-turn snapshot is taken in the background
    await Deno.writeTextFile(`${project.root}/notes.txt`, "v3, the user's own edit\n");
    await tern.send("third turn", "Enter");
    await tern.waitFor("Added extra.txt.");
    await tern.waitFor("all ›", { count: 4 });
    await tern.send("/rewind", "Enter");
    const menu = await tern.waitFor("Rewind to before which turn? (Esc: none)");
    assertStringIncludes(menu, '1. "first turn"');
    assertStringIncludes(menu, '3. "third turn"');
    await tern.send("1");
    const plan = await tern.waitFor("4. No");
    assertStringIncludes(plan, 'Rewind to before turn 1 "first turn" (3 turn(s) back)');
    await tern.send("1"); // all
    const asked = await tern.waitFor("3. No undo");
    assertStringIncludes(
      asked,
      "Changed after that turn (by you, or something other than the turn): notes.txt",
    );
    await tern.send("2"); // keep the user's edit
    await tern.waitFor("Undone: 2 file(s) restored, 1 newer file(s) kept, conversation rewound.");
    assertEquals(await Deno.readTextFile(`${project.root}/notes.txt`), "v3, the user's own edit\n");
    for (const gone of ["made.txt", "extra.txt"]) {
      await Deno.stat(`${project.root}/${gone}`).then(() => assert(false, `${gone} is gone`), () => {});
    }
    await tern.send("again", "Enter");
    await tern.waitFor("A fresh start.");
    const sent = model.requests.at(-1)!.messages as { role: string; content: string }[];
    assertEquals(sent.filter((m) => m.role === "user").map((m) => m.content), ["again"]);
    await tern.send("/exit", "Enter");
    assert(await tern.waitForExit(), "tern exits on /exit");
  },
);
