/** How tern is started from source: `deno task dev` as a newcomer meets it (issue 21 §5.1). */
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "./support/assert.ts";
import { startFakeModel } from "./support/fake_model_server.ts";
import { tempProject } from "./support/temp_project.ts";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const decoder = new TextDecoder();

/** The pid of the live process whose command line holds every word of `words`. */
async function pidWith(...words: string[]): Promise<number | undefined> {
  const { stdout } = await new Deno.Command("ps", { args: ["-eo", "pid=,args="] }).output();
  const line = decoder.decode(stdout).split("\n").find((row) => words.every((word) => row.includes(word)));
  return line === undefined ? undefined : Number(line.trim().split(/\s+/)[0]);
}

Deno.test({
  name: "deno task dev prints one short task line and runs tern with DENO_NO_UPDATE_CHECK=1",
  ignore: Deno.build.os !== "linux", // the environment is read from /proc
  fn: async () => {
    await using project = await tempProject();
    const marker = `marker-${crypto.randomUUID()}`;
    let release = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    let asked = () => {};
    const requested = new Promise<void>((resolve) => asked = resolve);
    // The model answers only once the test has looked at the running tern.
    await using model = await startFakeModel(async () => {
      asked();
      await held;
      return { text: "ok" };
    });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "--config", `${REPO}deno.json`, "dev", "-p", marker, "--no-session"],
      cwd: project.root,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/root",
        NO_COLOR: "1",
        TERN_BASE_URL: model.url,
        TERN_API_KEY: "k",
        TERN_MODEL: "fake-model",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    await Promise.race([requested, child.status]); // a tern that fails before asking the model ends the wait
    const pid = await pidWith("main.ts", marker);
    const environ = pid === undefined ? "" : await Deno.readTextFile(`/proc/${pid}/environ`).catch(() => "");
    release();
    const output = await child.output();
    const stderr = decoder.decode(output.stderr);
    assertEquals(decoder.decode(output.stdout), "ok\n", stderr);
    assert(pid !== undefined, "the running tern was not found");
    assert(environ.split("\0").includes("DENO_NO_UPDATE_CHECK=1"), "tern runs without DENO_NO_UPDATE_CHECK");
    const taskLines = stderr.split("\n").filter((line) => line.startsWith("Task "));
    assertEquals(taskLines.length, 1, stderr);
    const command = taskLines[0].split(" '")[0]; // the task's own words, before the arguments passed on
    assert(!command.includes("flags") && command.length < 40, `a long task line: ${taskLines[0]}`);
  },
});
