/**
 * Habits from other coding agents on tern's command line: Claude Code's `--output-format` is read as
 * `--output`, and an option tern does not know is answered with tern's nearest one (`--yolo` is
 * `--approve all`, `-m` is `--model`), from a table of other tools' flags or, failing that, by spelling.
 */

/** Other tools' spellings that mean exactly one of tern's options. */
const ALIASES: Readonly<Record<string, string>> = { "--output-format": "--output" };

/** Other tools' flags and what tern calls the same thing (said, never applied: the user decides). */
const HABITS: Readonly<Record<string, string>> = {
  "--yolo": "--approve all",
  "--dangerously-skip-permissions": "--approve all",
  "--dangerously-bypass-approvals-and-sandbox": "--approve all --sandbox off",
  "--full-auto": "--approve edits",
  "--auto-edit": "--approve edits",
  "--permission-mode": "--approve (ask, edits, all or plan)",
  "--ask-for-approval": "--approve",
  "-a": "--approve",
  "-m": "--model",
  "--max-budget-usd": "--token-budget N",
  "--prompt": "-p",
  "-q": "-p",
  "--quiet": "-p",
  "--cwd": "cd DIR && tern (the current directory is the project)",
  "-C": "cd DIR && tern (the current directory is the project)",
  "--add-dir": "cd DIR && tern (the current directory is the project)",
};

/** `argv` with other tools' aliases written as tern's options (`--output-format=json` too). */
export function withAliases(argv: readonly string[]): string[] {
  return argv.map((arg) => {
    const [name, ...value] = arg.split("=");
    const alias = ALIASES[name];
    if (alias === undefined) return arg;
    return value.length === 0 ? alias : `${alias}=${value.join("=")}`;
  });
}

/** tern's option closest to an unknown `option` (from `known`, names with their dashes), if any is close. */
export function closestOption(option: string, known: readonly string[]): string | undefined {
  const name = option.split("=")[0];
  const habit = HABITS[name];
  if (habit !== undefined) return habit;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    // A tie goes to the name of the same length: `--modle` is `--model` swapped, not `--mode` plus a letter.
    const distance = editDistance(name, candidate) + Math.abs(name.length - candidate.length) / 100;
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  // Close means a typo, not another word: at most 2 edits, and under a third of the name.
  const edits = Math.floor(best?.distance ?? Infinity);
  if (best === undefined || edits > 2 || edits * 3 >= name.length) return undefined;
  return best.name;
}

/** Edits from `a` to `b`: insertions, deletions, substitutions and swaps of two neighbours, each one. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
