/**
 * tern's own strict parser against node:util's parseArgs, which it replaced: on generated command lines both
 * accept the same ones with the same values and positionals, and refuse the same ones.
 */
import { parseArgs } from "node:util";
import { assert, assertEquals } from "../support/assert.ts";
import { parseStrict } from "../../src/cli/strict_parse.ts";
import { OPTIONS } from "../../src/cli/option_table.ts";
import { UsageError } from "../../src/cli/usage_error.ts";

/** Pieces of command lines: options of both kinds in every spelling, values, dashes and unknown names. */
const PIECES = [
  "-p",
  "--print",
  "--print=task",
  "-ptask",
  "-c",
  "--continue",
  "-ch",
  "-cp",
  "-hc",
  "-cx",
  "-h",
  "-v",
  "--help",
  "--help=yes",
  "--model",
  "--model=",
  "--model=a=b",
  "gpt",
  "-",
  "--",
  "-3",
  "fix it",
  "--fork",
  "-w",
  "-wname",
  "--no-session",
  "--sandbox",
  "off",
  "--zz",
  "-z",
  "--max-turns",
  "7",
  "-p-x",
  "--p",
];

/** A deterministic pseudo-random command line of up to 6 pieces (no `-r`: tern rewrites a bare one first). */
function commandLine(seed: number): string[] {
  const argv: string[] = [];
  // xorshift32: exact in 32-bit integers, unlike a multiply that overflows a double's 53 bits.
  let state = seed + 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  for (let n = next() % 7; n > 0; n--) argv.push(PIECES[next() % PIECES.length]);
  return argv;
}

type Outcome = { values: Record<string, unknown>; positionals: string[] } | "refused";

function byNode(argv: string[]): Outcome {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
    });
    return { values: { ...values }, positionals };
  } catch {
    return "refused";
  }
}

function byTern(argv: string[]): Outcome {
  try {
    const { values, positionals } = parseStrict(argv);
    return { values: { ...values }, positionals };
  } catch (error) {
    assert(error instanceof UsageError, `${JSON.stringify(argv)}: ${error}`);
    assert(!error.message.includes("\n"), error.message);
    return "refused";
  }
}

Deno.test("parseStrict() accepts and refuses what node:util parseArgs does, with the same values", () => {
  let accepted = 0;
  for (let seed = 0; seed < 3_000; seed++) {
    const argv = commandLine(seed);
    const expected = byNode(argv);
    assertEquals(byTern(argv), expected, JSON.stringify(argv));
    if (expected !== "refused") accepted++;
  }
  // Both kinds were tried: a generator that only made refused lines would prove nothing.
  assert(accepted > 300 && accepted < 2_700, `${accepted} of 3000 accepted`);
});

Deno.test("parseStrict() names the option as written in its errors", () => {
  const message = (argv: string[]) => {
    try {
      parseStrict(argv);
      return "";
    } catch (error) {
      return (error as Error).message;
    }
  };
  assertEquals(message(["-cz"]), "unknown option '-z'");
  assertEquals(message(["-cp"]), "option '-p, --print' needs a value");
  assertEquals(
    message(["-cp", "-x"]),
    "option '-p' needs a value; for a value starting with '-', write --print=VALUE",
  );
  assertEquals(message(["--continue=1"]), "option '-c, --continue' does not take an argument");
  assertEquals(message(["--fork=no"]), "option '--fork' does not take an argument");
});
