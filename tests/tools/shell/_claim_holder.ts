/**
 * A second tern process, as far as claims go: claims an empty placeholder folder at `AGENTS.md` in the
 * project given as its argument, prints "started" then "held", and holds it until its stdin closes (or it
 * is killed).
 */
import { join } from "node:path";
import { stateDir } from "../../../src/agent/state/tern_dir.ts";
import { addClaim, underLock, useSandboxClaims } from "../../../src/tools/shell/sandbox_claims.ts";

const root = Deno.args[0];
useSandboxClaims((dir) => stateDir(dir, "sandbox"));
console.log("started");
underLock(root, () => {
  addClaim(root, {
    placeholders: ["AGENTS.md"],
    uncovered: [".git/commondir"],
    git: "dir",
    background: false,
  });
  Deno.mkdirSync(join(root, "AGENTS.md"));
});
console.log("held");
await new Response(Deno.stdin.readable).text();
