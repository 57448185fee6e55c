import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/domain/api-error.js';
import { AddressSlots, CONNECTION_RETRY_AFTER_SECONDS } from '../src/domain/connection-caps.js';

const refusal = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('AddressSlots', () => {
  it('holds at most max per address, refuses with 429 TOO_MANY_CONNECTIONS and Retry-After, and frees a slot once', () => {
    const slots = new AddressSlots(2);
    const first = slots.hold('192.0.2.1');
    slots.hold('192.0.2.1');
    const refused = refusal(() => slots.hold('192.0.2.1'));
    expect(refused.code).toBe('TOO_MANY_CONNECTIONS');
    expect(refused.statusCode).toBe(429);
    expect(refused.retryAfterSeconds).toBe(CONNECTION_RETRY_AFTER_SECONDS);
    // another address has its own slots
    slots.hold('192.0.2.2');
    first();
    first();
    slots.hold('192.0.2.1');
    expect(refusal(() => slots.hold('192.0.2.1')).code).toBe('TOO_MANY_CONNECTIONS');
  });

  it('counts an IPv6 client by its /64', () => {
    const slots = new AddressSlots(1);
    const release = slots.hold('2001:db8::1');
    expect(slots.full('2001:db8::ffff:2')).toBe(true);
    expect(slots.full('2001:db8:0:1::1')).toBe(false);
    release();
    expect(slots.full('2001:db8::ffff:2')).toBe(false);
    expect(slots.addresses).toBe(0);
  });

  it('max 0 is no limit', () => {
    const slots = new AddressSlots(0);
    for (let i = 0; i < 1000; i++) slots.hold('192.0.2.1');
    expect(slots.full('192.0.2.1')).toBe(false);
  });
});
