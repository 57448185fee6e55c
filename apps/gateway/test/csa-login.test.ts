import { describe, expect, it } from 'vitest';
import { type LoginDeps, login } from '../src/csa/login.js';
import { hashToken, type Principal } from '../src/domain/auth.js';
import { TokenFilter } from '../src/domain/token-filter.js';

/**
 * login() over an in-memory account store, a filter of its valid tokens and failure counts:
 * which trips it looks up, and which it lets in, when an address or an account is past its
 * failures.
 */
function world(blocked: { readonly ips: string[]; readonly names: string[] }) {
  const trips = new Map<string, { name: string; principal: Principal }>();
  const principal = (id: string, username: string): Principal => ({
    id,
    name: username,
    username,
    tokenHash: `h-${id}`,
    token: { id: `t-${id}`, kind: 'personal', scopes: ['csa:play'], expiresAt: null },
  });
  trips.set('trip-a', { name: 'alice', principal: principal('a', 'alice') });
  trips.set('trip-b', { name: 'bob', principal: principal('b', 'bob') });
  const valid = new TokenFilter(100);
  for (const trip of trips.keys()) valid.add(hashToken(trip));
  const lookups: string[] = [];
  const failures: string[] = [];
  const deps: LoginDeps = {
    createGuest: async (name) => ({ id: `guest-${name}`, name }),
    principalOf: async (token) => {
      lookups.push(token);
      return trips.get(token)?.principal ?? null;
    },
    mayBeValid: (token) => valid.mayHold(hashToken(token)),
    blockedFor: (ip, name) => (blocked.ips.includes(ip) || blocked.names.includes(name.toLowerCase()) ? 30 : 0),
    failed: (ip, name) => failures.push(`${ip}/${name}`),
  };
  return { deps, lookups, failures };
}

const line = (name: string, trip: string) => ({ name, password: `game-300-10,${trip}`, x1: false });

describe('CSA login past the failures', () => {
  it('a blocked address: guesses cost no lookup and count, the right trip of any account logs in', async () => {
    const { deps, lookups, failures } = world({ ips: ['192.0.2.1'], names: [] });
    for (let i = 0; i < 200; i++) expect((await login(deps, line('alice', `guess-${i}`), '192.0.2.1')).ok).toBe(false);
    // a false positive of the filter costs one lookup: a few in two hundred at most
    expect(lookups.length).toBeLessThan(5);
    expect(failures).toHaveLength(200);
    lookups.length = 0;
    expect(await login(deps, line('alice', 'trip-a'), '192.0.2.1')).toMatchObject({ ok: true, trip: true });
    expect(await login(deps, line('Bob', 'trip-b'), '192.0.2.1')).toMatchObject({ ok: true, name: 'Bob' });
    // another account's trip is no trip of this one
    expect((await login(deps, line('bob', 'trip-a'), '192.0.2.1')).ok).toBe(false);
    expect(lookups).toEqual(['trip-a', 'trip-b', 'trip-a']);
  });

  it('a blocked account: guesses at it from a fresh address cost no lookup; another account there is looked up as usual', async () => {
    const { deps, lookups } = world({ ips: [], names: ['alice'] });
    expect((await login(deps, line('Alice', 'guess'), '198.51.100.7')).ok).toBe(false);
    expect(lookups).toEqual([]);
    expect((await login(deps, line('alice', 'trip-a'), '198.51.100.7')).ok).toBe(true);
    expect((await login(deps, line('bob', 'guess'), '198.51.100.7')).ok).toBe(false);
    expect(lookups).toEqual(['trip-a', 'guess']);
  });
});
