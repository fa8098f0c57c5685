/** The one-key menu on a real terminal (under tmux): a greyed-out choice says why when its key is pressed. */
import { assert, assertStringIncludes } from "../../support/assert.ts";
import { startFakeModel } from "../../support/fake_model_server.ts";
import { ternCommandLine } from "../../support/cli.ts";
import { tempProject } from "../../support/temp_project.ts";
import { startTmux } from "../../support/tmux.ts";
import { testNeeding } from "../../support/requires.ts";

testNeeding(
  ["tmux"],
  "--sandbox off: 'don't ask again' is greyed out for an unconfined command, and its key says why",
  async () => {
    await using project = await tempProject();
    await using model = await startFakeModel([
      { toolCalls: [{ name: "execute_command", arguments: '{"command":"echo hi"}' }] },
      { text: "Ran it." },
    ]);
    const env = `TERN_BASE_URL=${model.url} TERN_API_KEY=k TERN_MODEL=fake-model`;
    await using tern = await startTmux(
      `cd ${project.root} && env ${env} ${await ternCommandLine()} --sandbox off`,
    );
    const banner = await tern.waitFor("›");
    assertStringIncludes(banner, "sandbox: off — commands run unconfined and always ask");
    await tern.send("say hi", "Enter");
    const asked = await tern.waitFor("No, abort this turn");
    assertStringIncludes(
      asked,
      "2. Yes, and don't ask again for execute_command this session (unconfined commands are asked every time)",
    );
    await tern.send("2");
    await tern.waitFor("2 cannot be picked: unconfined commands are asked every time");
    await tern.send("1");
    await tern.waitFor("Ran it.");
    await tern.send("C-d");
    assert(await tern.waitForExit(), "tern exits on Ctrl-D");
  },
);
