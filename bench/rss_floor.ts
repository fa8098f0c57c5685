/**
 * The memory floor beside issue 31's peak-RSS rows: the peak RSS of a bare Deno script
 * (_rss_floor_program.ts) that makes the same streamed model requests to the same fake server and runs the
 * same number of bare `bwrap … bash -c` commands (plain `bash -c` where bubblewrap does not work), under the
 * V8 flags tern runs with. What Deno's fetch and its piped spawns keep resident is the floor's; the rest
 * (tern's code, its heap, its history) is tern's own. Medians of RUNS runs.
 */
import { startFakeModel } from "../tests/support/fake_model_server.ts";
import { ternFlags } from "../tests/support/cli.ts";
import { bwrapArgvs } from "./floors.ts";
import { median } from "./_tern_run.ts";
import type { Row } from "./_rows.ts";

const RUNS = 3;
const PROGRAM = new URL("./_rss_floor_program.ts", import.meta.url).pathname;

/** Peak RSS (MB) of the floor program over `turns` command turns in `root`; what it ran, for the row's name. */
export async function rssFloorMb(root: string, turns: number): Promise<{ mb: number; ran: string }> {
  const argv = await bwrapArgvs(root);
  const [program, args] = argv ? ["bwrap", argv.bare] : ["bash", ["-c", "echo 1"]];
  const v8 = (await ternFlags()).filter((flag) => flag.startsWith("--v8-flags="));
  const echo = (i: number) => ({
    toolCalls: [{ name: "execute_command", arguments: JSON.stringify({ command: `echo ${i + 1}` }) }],
    chunkSize: 8,
  });
  const peaks: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await using model = startFakeModel((_body, i) => i < turns ? echo(i) : { text: "Done.", chunkSize: 8 }, {
      forgetBodies: true,
    });
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--no-config",
        "--quiet",
        ...v8,
        PROGRAM,
        model.url,
        String(turns),
        program,
        ...args,
      ],
      cwd: root,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      throw new Error(`the memory floor failed: ${new TextDecoder().decode(output.stderr)}`);
    }
    peaks.push(Number(new TextDecoder().decode(output.stdout)) / 1024);
  }
  return { mb: median(peaks), ran: program };
}

/** The floor's row and tern's own share of `ternMb` above it, set under a peak-RSS row of `turns` turns. */
export function rssFloorRows(floor: { mb: number; ran: string }, ternMb: number, turns: number): Row[] {
  return [
    { name: `  floor: bare deno, ${turns} requests and ${floor.ran} runs`, unit: "MB", value: floor.mb },
    { name: "  tern's own above it", unit: "MB", value: ternMb - floor.mb },
  ];
}
