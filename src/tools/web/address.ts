/**
 * Which addresses web_fetch may reach: public ones only, unless the user allowed local fetches. Loopback,
 * private (RFC 1918, unique-local), link-local (cloud metadata lives there), carrier-grade NAT, multicast
 * and reserved ranges count as local.
 */

/** True when `address` (an IPv4 or IPv6 literal, brackets allowed) is not a public unicast address. */
export function isLocalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").toLowerCase();
  const v4 = parseIpv4(bare);
  if (v4 !== undefined) return isLocalIpv4(v4);
  const v6 = parseIpv6(bare);
  if (v6 === undefined) return true; // not an address we understand: refuse rather than guess
  return isLocalIpv6(v6);
}

/** True for host names that always mean this machine. */
export function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || name === "";
}

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

function isLocalIpv4([a, b]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || a >= 224 || // this network, private, loopback, multicast, reserved
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF assignments and documentation
    (a === 198 && (b === 18 || b === 19)); // benchmarking
}

/** Eight 16-bit groups, or undefined. Handles `::` and a trailing dotted IPv4 part. */
function parseIpv6(text: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/.test(text) || !text.includes(":")) return undefined;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseIpv4(dotted[1]);
    if (v4 === undefined) return undefined;
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    text = text.slice(0, -dotted[1].length) + `${hex(v4[0], v4[1])}:${hex(v4[2], v4[3])}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string) =>
    part === "" ? [] : part.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if ([...left, ...right].some(Number.isNaN) || missing < 0 || (halves.length === 1 && missing !== 0)) {
    return undefined;
  }
  return [...left, ...new Array<number>(missing).fill(0), ...right];
}

function isLocalIpv6(g: number[]): boolean {
  const allZeroUntil = (n: number) => g.slice(0, n).every((group) => group === 0);
  if (allZeroUntil(7) && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  if (allZeroUntil(5) && g[5] === 0xffff) return isLocalIpv4([g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255]);
  if (g[0] === 0x64 && g[1] === 0xff9b) return isLocalIpv4([g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255]);
  return (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xffc0) === 0xfe80 || // link-local
    (g[0] & 0xff00) === 0xff00 || // multicast
    g[0] === 0x2001 && g[1] === 0xdb8; // documentation
}
