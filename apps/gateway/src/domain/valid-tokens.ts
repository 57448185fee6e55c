/**
 * Every gateway's filter of the hashes of all valid tokens (domain/token-filter.ts), seeded
 * from PostgreSQL and kept current: tokens issued since (here or announced by another gateway)
 * are added, and the filter is built anew from PostgreSQL when the announcements may have been
 * missed and when it fills past its design size. While a new one is built the old one answers,
 * and the tokens added meanwhile go into both, so none is ever missing from the one in use.
 * Revoked and expired tokens stay in it until the next seeding: they cost a lookup each, as a
 * false positive does.
 */
import { TokenFilter } from './token-filter.js';

/** Where the valid token hashes are read (PostgreSQL; plugins/auth-store.ts). */
export interface ValidTokenSource {
  /** tells how many valid tokens there are (the filter's size), then every one's hash, a batch at a time */
  scan(counted: (count: number) => void, batch: (hashes: readonly string[]) => void): Promise<void>;
}

export class ValidTokens {
  private filter: TokenFilter | null = null;
  /** hashes added while a seeding runs: they go into its filter too */
  private during: string[] | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  private readonly source: ValidTokenSource;
  private readonly failed: (err: unknown) => void;

  /** `failed`: told of a seeding that failed (the filter in use stays) */
  constructor(source: ValidTokenSource, failed: (err: unknown) => void = () => {}) {
    this.source = source;
    this.failed = failed;
  }

  /**
   * Whether the token may be valid (false positives aside): false only for a hash that was
   * never added. Before the first seeding every token may be.
   */
  mayHold(tokenHash: string): boolean {
    return this.filter === null || this.filter.mayHold(tokenHash);
  }

  /** A token issued (here or on another gateway) or found valid. */
  add(tokenHash: string): void {
    this.filter?.add(tokenHash);
    this.during?.push(tokenHash);
    if (this.filter?.full === true && this.running === null) void this.reseed().catch(() => {});
  }

  /** the filter in use, for its size and count */
  get current(): TokenFilter | null {
    return this.filter;
  }

  /**
   * Builds the filter anew from the source, and swaps it in once complete. A call while one
   * runs makes it run once more after (what it read may predate the caller's reason).
   */
  reseed(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = this.seedWhileAsked().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async seedWhileAsked(): Promise<void> {
    do {
      this.again = false;
      this.during = [];
      try {
        let next = TokenFilter.forCount(0);
        await this.source.scan(
          (count) => {
            next = TokenFilter.forCount(count);
          },
          (batch) => {
            for (const hash of batch) next.add(hash);
          },
        );
        for (const hash of this.during) next.add(hash);
        this.filter = next;
      } catch (err) {
        this.failed(err);
        throw err;
      } finally {
        this.during = null;
      }
    } while (this.again);
  }
}
