import { assert, assertEquals, assertStringIncludes } from "./support/assert.ts";
import { existsSync } from "node:fs";
import { tempProject } from "./support/temp_project.ts";

const INSTALL = new URL("../install.sh", import.meta.url).pathname;
const OS = Deno.build.os === "darwin" ? "macos" : Deno.build.os;
const ASSET = `tern-${OS}-${Deno.build.arch}.tar.gz`;

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A fake release: a tar.gz holding a `tern` script, and SHA256SUMS (right, or wrong when asked). */
async function fakeRelease(dir: string, options: { badSum?: boolean } = {}) {
  await Deno.mkdir(`${dir}/pack`);
  await Deno.writeTextFile(`${dir}/pack/tern`, "#!/bin/sh\necho 'tern 9.9.9 (fake)'\n");
  const tar = await new Deno.Command("tar", {
    args: ["-czf", `${dir}/${ASSET}`, "-C", `${dir}/pack`, "tern"],
  })
    .output();
  assert(tar.success);
  const archive = await Deno.readFile(`${dir}/${ASSET}`);
  const sum = options.badSum ? "0".repeat(64) : await sha256(archive);
  const files: Record<string, Uint8Array<ArrayBuffer>> = {
    [`/${ASSET}`]: archive,
    "/SHA256SUMS": new TextEncoder().encode(`${"1".repeat(64)}  tern-other.tar.gz\n${sum}  ${ASSET}\n`),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const body = files[new URL(request.url).pathname];
    return body ? new Response(body) : new Response("not found", { status: 404 });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, [Symbol.asyncDispose]: () => server.shutdown() };
}

async function install(base: string, installDir: string) {
  const output = await new Deno.Command("sh", {
    args: [INSTALL],
    clearEnv: true,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: installDir,
      TERN_DOWNLOAD_BASE: base,
      TERN_INSTALL_DIR: installDir,
    },
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test("install.sh installs the asset for this OS and CPU after checking its SHA-256", async () => {
  await using work = await tempProject();
  await using release = await fakeRelease(work.root);
  const bin = `${work.root}/bin`;
  const run = await install(release.base, bin);
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stderr, `installed ${bin}/tern`);
  assertStringIncludes(run.stderr, "is not on your PATH; add it with: export PATH=");
  const tern = await new Deno.Command(`${bin}/tern`).output();
  assertEquals(new TextDecoder().decode(tern.stdout), "tern 9.9.9 (fake)\n");
  assertEquals([...Deno.readDirSync(bin)].map((entry) => entry.name), ["tern"]);
});

Deno.test("install.sh installs nothing when the checksum does not match", async () => {
  await using work = await tempProject();
  await using release = await fakeRelease(work.root, { badSum: true });
  const bin = `${work.root}/bin`;
  const run = await install(release.base, bin);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "checksum mismatch");
  assertStringIncludes(run.stderr, "nothing installed");
  assertEquals(await Deno.stat(bin).then(() => "exists", () => "absent"), "absent");
});

Deno.test("install.sh refuses to guess a repository when it has no download base", async () => {
  await using work = await tempProject();
  const run = await install("", `${work.root}/bin`);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "does not know its repository");
});

Deno.test("install.sh as the release stamps it downloads from that repository's releases", async () => {
  await using work = await tempProject();
  // What release.yml does to the copy it attaches.
  const stamped = (await Deno.readTextFile(INSTALL)).replaceAll("@REPO@", "someone/tern");
  await Deno.writeTextFile(`${work.root}/install.sh`, stamped);
  // No curl or wget on this PATH: the script says where it would download from, then stops.
  const tools = `${work.root}/tools`;
  await Deno.mkdir(tools);
  for (const name of ["uname", "mktemp", "rm"]) {
    const found = ["/usr/bin", "/bin"].map((dir) => `${dir}/${name}`).find((path) => existsSync(path));
    assert(found, name);
    await Deno.symlink(found, `${tools}/${name}`);
  }
  const output = await new Deno.Command("/bin/sh", {
    args: [`${work.root}/install.sh`],
    clearEnv: true,
    env: { PATH: tools, HOME: work.root, TERN_INSTALL_DIR: `${work.root}/bin` },
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assertEquals(output.code, 1, stderr);
  assertStringIncludes(stderr, "from https://github.com/someone/tern/releases/latest/download");
  assert(!stderr.includes("does not know its repository"), stderr);
});

Deno.test("the README links the install script without naming a repository it cannot know", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  assert(!readme.includes("OWNER/REPO"), "a placeholder repository in the README");
  const link = /\[install\.sh\]\(([^)]+)\)/.exec(readme)?.[1];
  assert(link !== undefined, "no install.sh link");
  // GitHub resolves a README's relative link against the file's page: the repository's own releases.
  const resolved = new URL(link, "https://github.com/someone/tern/blob/main/README.md").href;
  assertEquals(resolved, "https://github.com/someone/tern/releases/latest/download/install.sh");
});
