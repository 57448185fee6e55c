import { expect, test } from 'vitest';
import { clientKey } from '../src/domain/client-address.js';

test.each([
  ['203.0.113.7', '203.0.113.7'],
  ['::ffff:203.0.113.7', '203.0.113.7'],
  ['::FFFF:203.0.113.7', '203.0.113.7'],
  ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
  ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
  ['2001:db8::1', '2001:db8:0:0::/64'],
  ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ['::1', '0:0:0:0::/64'],
  ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
])('%s is counted as %s', (ip, key) => {
  expect(clientKey(ip)).toBe(key);
});

test('what is no address is its own key', () => {
  for (const odd of ['1:2:3', '1::2::3', 'not:an:address:at:all:x:y:z']) expect(clientKey(odd)).toBe(odd);
});
