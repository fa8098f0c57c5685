/** The walk's order of paths: ripgrep's `--sort path`, which is the order of the paths' UTF-8 bytes. */

/**
 * A UTF-16 code unit's place in code point order: a surrogate (half of a character above U+FFFF) sorts
 * after every other unit, and "/" (which ends a directory name in a path) before all of them.
 */
function rank(unit: number): number {
  if (unit === 0x2f) return -1;
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/**
 * Compares "/"-separated paths (or single names) in walk order: directory by directory, each name by
 * code point, which is the order of their UTF-8 bytes, as ripgrep sorts.
 */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  // Up to the first difference the strings agree, so a surrogate there is never half of a compared pair.
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) < rank(y) ? -1 : 1;
  }
  return a.length - b.length;
}
