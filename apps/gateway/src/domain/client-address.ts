/**
 * The key a per-address limit counts a client by, pure. An IPv4 address is its own key; an
 * IPv6 client is keyed by its /64 prefix, because one subscriber is routinely given a whole
 * /64 and could otherwise take a fresh address for every request. An IPv4 address written as
 * IPv6 (`::ffff:192.0.2.1`, as a dual-stack socket reports it) is the IPv4 address.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (valid per isIPv6), or null. */
function ipv6Groups(address: string): number[] | null {
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups: number[] = [];
    for (const piece of part.split(':')) {
      if (isIPv4(piece)) {
        const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
        groups.push((a << 8) | b, (c << 8) | d);
      } else groups.push(Number.parseInt(piece, 16));
    }
    return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
  };
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  if (left === null || right === null) return null;
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...Array<number>(missing).fill(0), ...right];
}

/** The client's key: `a.b.c.d`, or `x:x:x:x::/64` (lowercase hex, no leading zeros); the input itself when it is neither. */
export function addressKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  // a zone (fe80::1%eth0) names the local interface, not the client
  const bare = ip.split('%')[0] ?? ip;
  if (!isIPv6(bare)) return ip;
  const groups = ipv6Groups(bare.toLowerCase());
  if (groups === null) return ip;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
