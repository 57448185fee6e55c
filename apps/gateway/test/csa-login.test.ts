import { describe, expect, it } from 'vitest';
import { type LoginDeps, login } from '../src/csa/login.js';
import type { Principal } from '../src/domain/auth.js';

/**
 * login() over an in-memory account store and failure counts: which trips it looks up, and
 * which it lets in, when an address or an account is past its failures.
 */
function world(blocked: { readonly ips: string[]; readonly names: string[] }, seen: readonly string[] = []) {
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
  const lookups: string[] = [];
  const reads: string[] = [];
  const failures: string[] = [];
  const deps: LoginDeps = {
    createGuest: async (name) => ({ id: `guest-${name}`, name }),
    principalOf: async (token) => {
      lookups.push(token);
      return trips.get(token)?.principal ?? null;
    },
    known: async (token) => seen.includes(token),
    accountHolds: async (name, token) => {
      reads.push(name);
      return trips.get(token)?.name === name.toLowerCase();
    },
    blockedFor: (ip, name) => (blocked.ips.includes(ip) || blocked.names.includes(name.toLowerCase()) ? 30 : 0),
    failed: (ip, name) => failures.push(`${ip}/${name}`),
  };
  return { deps, lookups, reads, failures };
}

const line = (name: string, trip: string) => ({ name, password: `game-300-10,${trip}`, x1: false });

describe('CSA login past the failures', () => {
  it('a blocked address: a guess costs no lookup and counts, the right trip of any account logs in', async () => {
    const { deps, lookups, failures } = world({ ips: ['192.0.2.1'], names: [] });
    expect((await login(deps, line('alice', 'guess'), '192.0.2.1')).ok).toBe(false);
    expect(lookups).toEqual([]);
    expect(failures).toEqual(['192.0.2.1/alice']);
    expect(await login(deps, line('alice', 'trip-a'), '192.0.2.1')).toMatchObject({ ok: true, trip: true });
    expect(await login(deps, line('Bob', 'trip-b'), '192.0.2.1')).toMatchObject({ ok: true, name: 'Bob' });
    // another account's trip is no trip of this one
    expect((await login(deps, line('bob', 'trip-a'), '192.0.2.1')).ok).toBe(false);
  });

  it('a blocked account: guesses at it from a fresh address cost no lookup; another account there is looked up as usual', async () => {
    const { deps, lookups } = world({ ips: [], names: ['alice'] });
    expect((await login(deps, line('Alice', 'guess'), '198.51.100.7')).ok).toBe(false);
    expect(lookups).toEqual([]);
    expect((await login(deps, line('alice', 'trip-a'), '198.51.100.7')).ok).toBe(true);
    expect((await login(deps, line('bob', 'guess'), '198.51.100.7')).ok).toBe(false);
    expect(lookups).toEqual(['trip-a', 'guess']);
  });

  it('a blocked address: a trip some gateway has seen valid is looked up without reading its account', async () => {
    const { deps, lookups, reads } = world({ ips: ['192.0.2.1'], names: ['alice'] }, ['trip-a']);
    expect(await login(deps, line('alice', 'trip-a'), '192.0.2.1')).toMatchObject({ ok: true, trip: true });
    expect(lookups).toEqual(['trip-a']);
    expect(reads).toEqual([]);
  });
});
