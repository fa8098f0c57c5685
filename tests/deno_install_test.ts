import { assert, assertEquals, assertMatch, assertStringIncludes } from "./support/assert.ts";
import { tempProject } from "./support/temp_project.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { refusingServer } from "./support/refusing_server.ts";

const PROJECT = new URL("../", import.meta.url).pathname;

Deno.test("deno task install leaves a wrapper that never phones home (behind a proxy refusing all)", async () => {
  await using root = await tempProject();
  const env = { ...Deno.env.toObject(), DENO_INSTALL_ROOT: root.root, SHELL: "/bin/bash" };
  const install = await new Deno.Command(Deno.execPath(), { args: ["task", "install"], cwd: PROJECT, env })
    .output();
  assertEquals(install.code, 0, new TextDecoder().decode(install.stderr));
  // The folder is not on this PATH: the install prints the line that puts it there.
  assertStringIncludes(
    new TextDecoder().decode(install.stdout),
    `which is not on your PATH; add this line to ~/.bashrc:\nexport PATH="${root.root}/bin:$PATH"\n`,
  );
  const wrapper = await Deno.readTextFile(`${root.root}/bin/tern`);
  assertMatch(wrapper, /^#!\/bin\/sh\nexport DENO_NO_UPDATE_CHECK=1\n[\s\S]*exec deno run /);
  // Quiet: a machine without rg, bwrap or git gets no "Failed to resolve … for allow-run" notice.
  assertMatch(wrapper, / --quiet /);

  await using project = await tempProject({ "a.txt": "hi\n" });
  await using model = await startFakeModel([{ text: "fine" }]);
  await using proxy = refusingServer();
  const run = await new Deno.Command(`${root.root}/bin/tern`, {
    args: ["-p", "hello"],
    cwd: project.root,
    clearEnv: true,
    env: {
      PATH: `${Deno.execPath().replace(/\/[^/]+$/, "")}:/usr/bin:/bin`,
      HOME: Deno.env.get("HOME") ?? "/root",
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: new URL(model.url).hostname,
      TERN_BASE_URL: model.url,
      TERN_API_KEY: "k",
      TERN_MODEL: "m",
    },
  }).output();
  assertEquals(run.code, 0, new TextDecoder().decode(run.stderr));
  assertEquals(new TextDecoder().decode(run.stdout), "fine\n");
  assertEquals(proxy.attempts, []);
  assert(model.requests.length === 1);
});
