/**
 * The key a per-IP limit counts a client by. An IPv4 address is one client; an IPv6 host is
 * usually given a whole /64 and may pick any address in it, so counting per address would
 * give each such client 2^64 fresh counters: it is counted by its /64 instead.
 */

/** `a.b.c.d` for IPv4 (also when mapped into IPv6), `x:x:x:x::/64` for IPv6. */
export function clientKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(':')) return address;
  const groups = expand(address);
  if (groups === null) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** The eight groups of an IPv6 address, or null when it is not one. */
function expand(address: string): string[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parts = (half: string | undefined) =>
    half === undefined || half === '' ? [] : half.split(':').flatMap((p) => (p.includes('.') ? ['0', '0'] : [p])); // an IPv4 tail is two groups
  const head = parts(halves[0]);
  const tail = parts(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) ? groups : null;
}
