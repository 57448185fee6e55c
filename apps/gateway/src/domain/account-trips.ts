/**
 * The csa:play token hashes of accounts, read for the CSA trips that come from an address or
 * for an account past its failures (csa/login.ts): the right trip still logs in without being
 * looked up as a guess would be. Each account is read at most once a window, and the reads
 * one address causes in a window are capped: a guesser cycling through usernames would
 * otherwise cost a database read per login, more than the lookups the brake is there to save.
 * Past the cap, only the accounts already read (and tokens some gateway has seen valid, which
 * the caller checks first) get in from that address until the window ends.
 */
import { addressKey } from './client-address.js';
import { TokenCache } from './token-cache.js';

export interface AccountTripsOptions {
  /** how long an account's hashes and an address's reads are kept */
  readonly windowMs: number;
  /** accounts an address may have read per window (0: no cap) */
  readonly readsPerAddress: number;
  readonly now?: () => number;
}

export class AccountTrips {
  private readonly hashes: TokenCache<ReadonlySet<string>>;
  private readonly reads: TokenCache<{ count: number }>;
  private readonly read: (account: string) => Promise<readonly string[]>;
  private readonly readsPerAddress: number;
  private readonly now: () => number;

  /** `read`: the account's csa:play token hashes (none for an unknown username) */
  constructor(read: (account: string) => Promise<readonly string[]>, options: AccountTripsOptions) {
    this.read = read;
    this.readsPerAddress = options.readsPerAddress;
    this.now = options.now ?? Date.now;
    this.hashes = new TokenCache(options.windowMs, 10_000);
    this.reads = new TokenCache(options.windowMs, 10_000);
  }

  /** Whether the token is one of the account's; false, unread, for an address past its reads. */
  async holds(account: string, tokenHash: string, ip: string): Promise<boolean> {
    const key = account.toLowerCase();
    const at = this.now();
    let hashes = this.hashes.get(key, at);
    if (hashes === undefined) {
      if (!this.mayRead(ip, at)) return false;
      hashes = new Set(await this.read(account));
      this.hashes.set(key, hashes, at);
    }
    return hashes.has(tokenHash);
  }

  private mayRead(ip: string, at: number): boolean {
    if (this.readsPerAddress === 0) return true;
    const key = addressKey(ip);
    const reads = this.reads.get(key, at);
    if (reads === undefined) {
      this.reads.set(key, { count: 1 }, at);
      return true;
    }
    if (reads.count >= this.readsPerAddress) return false;
    reads.count++;
    return true;
  }
}
