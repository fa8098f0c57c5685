import { assertEquals } from "../support/assert.ts";
import { describeCall } from "../../src/cli/approve.ts";

Deno.test("describeCall() shows a command whole and a write with its size", () => {
  const command =
    "rm -rf build && deno task test -- --filter 'a very long filter that goes on and on and on'";
  assertEquals(
    describeCall({
      call: { id: "1", name: "execute_command", arguments: JSON.stringify({ command }) },
      effect: "exec",
    }),
    `Run command:\n  ${command}\n`,
  );
  assertEquals(
    describeCall({
      call: { id: "2", name: "write_file", arguments: '{"path":"a.txt","content":"héllo"}' },
      effect: "write",
    }),
    "Allow write_file on a.txt (6 bytes)?",
  );
});
