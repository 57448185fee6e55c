import { expect, test } from 'vitest';
import { countLookers } from '../src/domain/lobby-presence.js';

test('players are counted once however many sockets they have, those excepted left out', () => {
  const members = ['alice/1', 'alice/2', 'bob/3', 'carol/4'];
  expect(countLookers(members, [])).toBe(3);
  expect(countLookers(members, ['alice'])).toBe(2);
  expect(countLookers(members, ['alice', 'bob', 'carol'])).toBe(0);
  expect(countLookers([], ['alice'])).toBe(0);
});
