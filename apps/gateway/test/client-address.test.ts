import { describe, expect, test } from 'vitest';
import { addressKey } from '../src/domain/client-address.js';

describe('addressKey: what a per-address limit counts a client by', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
  ])('%s → %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  test('two addresses of one /64 share a key; the next /64 does not', () => {
    expect(addressKey('2001:db8:aa:bb::1')).toBe(addressKey('2001:db8:aa:bb:ffff::2'));
    expect(addressKey('2001:db8:aa:bb::1')).not.toBe(addressKey('2001:db8:aa:bc::1'));
  });

  test('anything else is its own key', () => {
    expect(addressKey('not an address')).toBe('not an address');
    expect(addressKey('')).toBe('');
  });
});
