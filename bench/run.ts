/**
 * `deno task bench`: tern -p against the local fake model server. First the request-body bytes (issue 10,
 * the 20-turn scenario streamed and identified as the comparison server does); then the per-turn figures of issue 18
 * (bench/turns.ts: one-turn wall time and peak RSS, CPU and wall time per extra tool turn, the programs a
 * turn starts, a 220-turn session), each with its target and main's figure before the issue; then the tool
 * figures (bench/tools.ts: grep/glob on a 50,000-file tree against rg and find, read/edit of a 5 MB file) and
 * the 1,000-turn session of issue 31 (bench/long_session.ts: CPU per turn early and late, peak RSS, `-c`);
 * the per-turn figures end with issue 31's floors (bench/floors.ts), measured in the same run;
 * undo's snapshots; last, sub-agents (bench/sub_agents.ts): what a child's five reads add to the main
 * session's next request; and what sealing tern's own state costs a turn and a resume (bench/state_seal.ts).
 */
import { runToolBench } from "./tools.ts";
import { runSnapshotBench } from "./snapshots.ts";
import { printRequestBytes } from "./request_bytes.ts";
import { turnRows } from "./turns.ts";
import { printRows } from "./_rows.ts";
import { printSubAgentBench } from "./sub_agents.ts";
import { runSealBench } from "./state_seal.ts";
import { longSessionRows } from "./long_session.ts";

await printRequestBytes();
printRows(
  "per-turn figures (tern -p as installed, the sandbox on where bubblewrap works):",
  await turnRows(),
);
printRows("a 1,000-turn session (issue 31):", await longSessionRows());
await runToolBench();
await runSnapshotBench();
runSealBench();
await printSubAgentBench();
