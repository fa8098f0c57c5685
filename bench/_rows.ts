/** One printed figure with the figure before issue 18 and its target, and how rows are printed. */

/** A figure; `target` is an upper bound, `before` what main measured before issue 18 on the same machine. */
export interface Row {
  name: string;
  unit: string;
  value: number;
  target?: number;
  before?: number;
}

function shown(value: number, unit: string): string {
  const digits = unit === "s" || unit === "×" ? 2 : value < 10 ? 1 : 0;
  const text = value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return unit === "" || unit === "×" ? `${text}${unit}` : `${text} ${unit}`;
}

/** Prints `rows` under `title`: figure, then before → now, target and ratio where there are. */
export function printRows(title: string, rows: Row[]): void {
  console.log(title);
  for (const row of rows) {
    const before = row.before === undefined ? "" : `  before ${shown(row.before, row.unit)}`;
    const target = row.target === undefined
      ? ""
      : `  target ≤ ${shown(row.target, row.unit)} (${
        row.target === 0 ? "" : `ratio ${(row.value / row.target).toFixed(2)}, `
      }${row.value <= row.target ? "met" : "NOT met"})`;
    console.log(`  ${row.name.padEnd(50)} ${shown(row.value, row.unit).padStart(9)}${before}${target}`);
  }
}
