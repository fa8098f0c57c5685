/** Temp projects for tests: a real directory with files, removed when the test's `await using` scope ends. */

/** A temp project; `path` is its real (symlink-resolved) path. */
export interface TempProject extends AsyncDisposable {
  path: string;
}

/** Creates a temp directory holding `files` (relative path → content). */
export async function tempProject(files: Record<string, string> = {}): Promise<TempProject> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-test-" }));
  for (const [name, content] of Object.entries(files)) {
    const file = `${path}/${name}`;
    await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(file, content);
  }
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}
