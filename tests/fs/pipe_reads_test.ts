import { assertEquals, assertStrictEquals } from "../support/assert.ts";
import { pipeReader } from "../../src/fs/pipe_reads.ts";

/** All of `child`'s stdout through a pipeReader, each chunk copied out before the next read. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = pipeReader(stream);
  const chunks: Uint8Array[] = [];
  for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
    chunks.push(chunk.slice());
  }
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

Deno.test("pipeReader() reads a child's whole output, 1 MB over many reads, then null", async () => {
  // Bytes that differ from chunk to chunk: a reused buffer that leaked one read into the next would show.
  const script = "for i in $(seq 1 20000); do printf '%049d\\n' $i; done";
  const child = new Deno.Command("bash", { args: ["-c", script], stdout: "piped" }).spawn();
  const [bytes] = await Promise.all([readAll(child.stdout), child.status]);
  const lines = new TextDecoder().decode(bytes).split("\n");
  assertEquals(lines.length, 20001);
  assertEquals(lines[0], "1".padStart(49, "0"));
  assertEquals(lines[19999], "20000".padStart(49, "0"));
});

Deno.test("pipeReader() of two pipes read side by side keeps each one's bytes apart", async () => {
  const child = new Deno.Command("bash", {
    args: ["-c", "echo out-1; echo err-1 >&2; echo out-2; echo err-2 >&2"],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const [out, err] = await Promise.all([readAll(child.stdout), readAll(child.stderr), child.status]);
  assertEquals(new TextDecoder().decode(out), "out-1\nout-2\n");
  assertEquals(new TextDecoder().decode(err), "err-1\nerr-2\n");
});

Deno.test("pipeReader().cancel() ends a pending read with null, and the reader stays ended", async () => {
  const child = new Deno.Command("sleep", { args: ["30"], stdout: "piped" }).spawn();
  const reader = pipeReader(child.stdout);
  const pending = reader.read();
  await reader.cancel();
  assertStrictEquals(await pending, null);
  assertStrictEquals(await reader.read(), null);
  child.kill();
  await child.status;
});
