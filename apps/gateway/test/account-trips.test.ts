import { describe, expect, it } from 'vitest';
import { AccountTrips } from '../src/domain/account-trips.js';

/**
 * The account reads of CSA trips past the failures: an address cycling through usernames
 * costs at most `readsPerAddress` reads a window, and the right trip of an account read
 * before still holds.
 */
describe('AccountTrips', () => {
  const world = () => {
    const reads: string[] = [];
    let now = 0;
    const trips = new AccountTrips(
      async (account) => {
        reads.push(account);
        return account.toLowerCase() === 'alice' ? ['h-alice'] : [];
      },
      { windowMs: 60_000, readsPerAddress: 5, now: () => now },
    );
    return { trips, reads, later: (ms: number) => (now += ms) };
  };

  it('an address cycling through usernames reads at most its cap a window', async () => {
    const { trips, reads, later } = world();
    for (let i = 0; i < 100; i++) expect(await trips.holds(`name${i}`, 'guess', '192.0.2.1')).toBe(false);
    expect(reads.length).toBe(5);
    // another address has reads of its own
    expect(await trips.holds('alice', 'h-alice', '198.51.100.7')).toBe(true);
    expect(reads.length).toBe(6);
    // the window over, the address may read again
    later(60_000);
    await trips.holds('name200', 'guess', '192.0.2.1');
    expect(reads.length).toBe(7);
  });

  it('an account is read once a window, whoever asks and however often', async () => {
    const { trips, reads } = world();
    for (let i = 0; i < 50; i++) expect(await trips.holds('Alice', 'guess', `192.0.2.${i}`)).toBe(false);
    expect(await trips.holds('alice', 'h-alice', '192.0.2.1')).toBe(true);
    expect(reads).toEqual(['Alice']);
  });

  it('an IPv6 client is counted by its /64', async () => {
    const { trips, reads } = world();
    for (let i = 0; i < 20; i++) await trips.holds(`name${i}`, 'guess', `2001:db8:1:2::${i.toString(16)}`);
    expect(reads.length).toBe(5);
  });
});
