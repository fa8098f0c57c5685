import { requestSizes } from "./request_bytes.ts";
const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bytes-" }));
const first = await requestSizes(root, [{ text: "Hello." }]);
const echoes = Array.from(
  { length: 20 },
  (_, i) => ({
    toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command: `echo ${i + 1}` }) }],
    chunkSize: 8,
  }),
);
const { sizes } = await requestSizes(root, [...echoes, { text: "Done." }]);
console.log("first", first.sizes[0], "sum20", sizes.reduce((a, b) => a + b, 0));
