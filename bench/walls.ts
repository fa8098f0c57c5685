/**
 * Figures for the walls: the deny-list check on a command at the length cap and on a 1 MB one (refused by
 * length), and what verifying every open and write from inside its directory costs per small file call.
 */
import { join } from "node:path";
import { deniedReason, MAX_COMMAND_CHARS } from "../src/tools/shell/deny_list.ts";
import { createReadFileTool } from "../src/tools/read_file.ts";
import { createWriteFileTool } from "../src/tools/write_file.ts";

const readFileTool = createReadFileTool();
const writeFileTool = createWriteFileTool();
import { timed, toolContext } from "./_measure.ts";
import { closeFileWall, openFileWall } from "../src/fs/file_wall.ts";

export async function wallFigures(): Promise<void> {
  const shapes = {
    "name characters": "a".repeat(MAX_COMMAND_CHARS - 1),
    "`f(` repeated": "f(".repeat(MAX_COMMAND_CHARS / 2 - 1),
    "`a|` repeated": "a|".repeat(MAX_COMMAND_CHARS / 2 - 1),
  };
  for (const [name, command] of Object.entries(shapes)) {
    const { ms } = await timed(5, () => Promise.resolve(deniedReason(command)));
    console.log(`deny-list check, ${command.length} chars of ${name}: ${ms.toFixed(1)} ms`);
  }
  const { ms: mega } = await timed(5, () => Promise.resolve(deniedReason("x".repeat(1_000_000))));
  console.log(`deny-list check, 1 MB command (refused by length): ${mega.toFixed(3)} ms`);
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tern-bench-walls-" }));
  try {
    await Deno.writeTextFile(join(root, "small.txt"), "hello\n".repeat(100));
    const ctx = toolContext(root);
    let i = 0;
    // With the long-lived file helper (as the CLI runs), then with a bash script per check (its fallback).
    for (const helper of [true, false]) {
      if (helper) openFileWall(() => {});
      const how = helper ? "the file helper" : "a script per check";
      const read = await timed(50, () => Promise.resolve(readFileTool.run({ path: "small.txt" }, ctx)));
      console.log(
        `read_file of a 600-byte file (opened from inside its directory, by ${how}): ${
          read.ms.toFixed(1)
        } ms`,
      );
      const write = await timed(
        50,
        () => Promise.resolve(writeFileTool.run({ path: `w/${i++}.txt`, content: "x" }, ctx)),
      );
      console.log(
        `write_file of a new file in a new directory (each level checked, by ${how}): ${
          write.ms.toFixed(1)
        } ms`,
      );
      if (helper) await closeFileWall();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await wallFigures();
