/**
 * The program of the memory floor (rss_floor.ts): what tern's command turns make Deno do, without tern.
 * `deno run … _rss_floor_program.ts URL TURNS PROGRAM ARGS…` makes TURNS streamed chat requests to URL, each
 * answer read as it comes, and after each one runs PROGRAM ARGS (the bare bwrap … bash -c) with both pipes
 * read; then one last request, as tern sends for its answer. The bodies grow as tern's do over `echo N`
 * turns (about 4,000 bytes, then 220 more a turn). Prints its peak RSS (VmHWM, kB).
 */
const [url, turns, program, ...args] = Deno.args;
const headers = { "content-type": "application/json" };
// One buffer for every body, as tern's transport keeps (llm/_byte_buffer.ts): each request sends a view of
// it, a JSON body padded with spaces to the length of tern's request at that turn.
const json = '{"model":"fake","stream":true,"messages":[{"role":"user","content":"go"}]}';
const bodies = new TextEncoder().encode(json.padEnd(4_000 + 220 * Number(turns)));

async function request(turn: number): Promise<void> {
  const body = bodies.subarray(0, 4_000 + 220 * turn);
  const response = await fetch(`${url}/chat/completions`, { method: "POST", body, headers });
  if (!response.ok) throw new Error(`the fake model answered ${response.status}`);
  for await (const _piece of response.body!) {
    // read as it streams, as tern's transport does
  }
}

for (let i = 0; i < Number(turns); i++) {
  await request(i);
  const child = new Deno.Command(program, { args, stdin: "null", stdout: "piped", stderr: "piped" }).spawn();
  await Promise.all([
    child.stdout.pipeTo(new WritableStream()),
    child.stderr.pipeTo(new WritableStream()),
    child.status,
  ]);
}
await request(Number(turns));
console.log(/VmHWM:\s+(\d+)/.exec(Deno.readTextFileSync("/proc/self/status"))?.[1] ?? "0");
