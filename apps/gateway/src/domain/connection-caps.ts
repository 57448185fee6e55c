/**
 * What the caps on long-lived connections share, pure: the refusal a client gets past one, and
 * the count of a gateway's connections per client address that public connections (spectator
 * sockets, the public NDJSON game stream, the record downloads) are capped by.
 */
import { metrics } from '@shogi/metrics';
import { ApiError } from './api-error.js';
import { addressKey } from './client-address.js';

/**
 * Retry-After of a refusal for too many open connections. A slot frees only when one of the
 * client's own connections closes, which the server cannot foresee: a short fixed wait makes a
 * well-behaved client back off instead of retrying in a loop.
 */
export const CONNECTION_RETRY_AFTER_SECONDS = 10;

/** 429 TOO_MANY_CONNECTIONS with Retry-After, before the upgrade or the stream's first byte. */
export const tooManyConnections = (detail: string): ApiError => {
  metrics.refused.inc({ limit: 'connections' });
  return new ApiError('TOO_MANY_CONNECTIONS', detail, { retryAfterSeconds: CONNECTION_RETRY_AFTER_SECONDS });
};

/** Open connections per client address (addressKey: an IPv6 client by its /64), at most `max` each (0: no limit). */
export class AddressSlots {
  private readonly counts = new Map<string, number>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** the address holds as many connections as it may */
  full(ip: string): boolean {
    return this.max > 0 && (this.counts.get(addressKey(ip)) ?? 0) >= this.max;
  }

  acquire(ip: string): void {
    const key = addressKey(ip);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  release(ip: string): void {
    const key = addressKey(ip);
    const n = (this.counts.get(key) ?? 1) - 1;
    if (n <= 0) this.counts.delete(key);
    else this.counts.set(key, n);
  }

  /**
   * Takes a slot, or throws 429 TOO_MANY_CONNECTIONS when the address has none left; the
   * function handed back gives it back, once however often it is called.
   */
  hold(ip: string): () => void {
    if (this.full(ip)) throw tooManyConnections('too many open connections from this address');
    this.acquire(ip);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.release(ip);
    };
  }

  /** addresses holding at least one connection */
  get addresses(): number {
    return this.counts.size;
  }
}
