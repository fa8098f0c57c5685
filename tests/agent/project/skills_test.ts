import { assertEquals, assertStringIncludes } from "../../support/assert.ts";
import { tempProject } from "../../support/temp_project.ts";
import { discoverSkills, frontMatter } from "../../../src/agent/project/skills.ts";
import { systemPrompt } from "../../../src/agent/prompt.ts";

const skill = (name: string, description: string, body = "Do the thing.") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;

Deno.test("discoverSkills() finds skills in all three folders, sorted, the first folder winning a name", async () => {
  await using project = await tempProject({
    ".tern/skills/release/SKILL.md": skill("release", "Cut a release: bump, tag, changelog."),
    ".agents/skills/release/SKILL.md": skill("release", "An older release skill."),
    ".claude/skills/pdf/SKILL.md": skill("pdf", '"Read PDFs: extract text, fill forms."'),
    ".claude/skills/broken/SKILL.md": "no front matter here",
    ".claude/skills/Bad/SKILL.md": skill("Bad Name", "x"),
  });
  const { skills, problems } = await discoverSkills(project.root);
  assertEquals(skills, [
    { name: "pdf", description: "Read PDFs: extract text, fill forms.", path: ".claude/skills/pdf/SKILL.md" },
    {
      name: "release",
      description: "Cut a release: bump, tag, changelog.",
      path: ".tern/skills/release/SKILL.md",
    },
  ]);
  assertEquals(problems, [
    ".claude/skills/Bad/SKILL.md: name must be lower-case letters, digits and hyphens",
    ".claude/skills/broken/SKILL.md: no front matter (--- name: ... description: ... ---)",
  ]);
});

Deno.test("discoverSkills() skips a skills folder that is a symlink", async () => {
  await using project = await tempProject({ "elsewhere/x/SKILL.md": skill("x", "planted") });
  await Deno.mkdir(`${project.root}/.claude`);
  await Deno.symlink(`${project.root}/elsewhere`, `${project.root}/.claude/skills`);
  assertEquals((await discoverSkills(project.root)).skills, []);
});

Deno.test("frontMatter() reads folded descriptions and quoted values", () => {
  const text = "---\nname: 'it''s'\ndescription: >\n  first line\n  second line\nother: 1\n---\nbody";
  assertEquals(frontMatter(text), { name: "it's", description: "first line second line", other: "1" });
});

Deno.test("the system prompt lists skills by name and description only, byte-stable across builds", async () => {
  await using project = await tempProject({
    ".tern/skills/deploy/SKILL.md": skill("deploy", "Deploy to staging.", "SECRET BODY"),
  });
  const build = async () => systemPrompt("/p", [], { skills: (await discoverSkills(project.root)).skills });
  const prompt = await build();
  assertStringIncludes(prompt, "- deploy: Deploy to staging. (.tern/skills/deploy/SKILL.md)");
  assertEquals(prompt.includes("SECRET BODY"), false);
  assertEquals(await build(), prompt);
  assertEquals(systemPrompt("/p", []).includes("Skills"), false);
});
