import { assertEquals, assertRejects } from "../../support/assert.ts";
import { tempProject } from "../../support/temp_project.ts";
import { projectRoot, ProjectRootError } from "../../../src/cli/acp/project_root.ts";

Deno.test("projectRoot() takes the allowed directory or one below it, as its real path", async () => {
  await using project = await tempProject();
  await Deno.mkdir(`${project.root}/sub`);
  await Deno.symlink(`${project.root}/sub`, `${project.root}/link`);
  assertEquals(await projectRoot(project.root, project.root), project.root);
  assertEquals(await projectRoot(`${project.root}/link`, project.root), `${project.root}/sub`);
});

Deno.test("projectRoot() refuses a symlink that leads out of the allowed directory", async () => {
  await using project = await tempProject();
  await Deno.symlink(project.outside, `${project.root}/escape`);
  await assertRejects(
    () => projectRoot(`${project.root}/escape`, project.root),
    ProjectRootError,
    "is outside",
  );
});

Deno.test({
  name: "projectRoot() refuses a directory it cannot read",
  ignore: Deno.uid() === 0, // root reads any directory
  fn: async () => {
    await using project = await tempProject();
    const locked = `${project.root}/locked`;
    await Deno.mkdir(locked, { mode: 0o000 });
    try {
      await assertRejects(() => projectRoot(locked, project.root), ProjectRootError, "cannot be read");
    } finally {
      await Deno.chmod(locked, 0o755);
    }
  },
});
