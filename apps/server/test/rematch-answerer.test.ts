import type { ChallengeView } from '@shogi/protocol';
import { expect, test } from 'vitest';
import { worthAccepting } from '../src/demo/rematch-answerer.js';

const created = Date.UTC(2025, 0, 1);
const offer = (over: Partial<ChallengeView> = {}): ChallengeView => ({
  id: 'c1',
  challenger: { id: 'person', name: 'person' },
  opponent: { id: 'bot', name: 'bot-lobby' },
  timeControl: { kind: 'byoyomi', mainSeconds: 180, byoyomiSeconds: 10, periods: 1 },
  rated: false,
  color: 'gote',
  ruleset: 'default',
  handicap: null,
  sfen: null,
  status: 'pending',
  gameId: null,
  rematchOf: 'g1',
  createdAt: new Date(created).toISOString(),
  expiresAt: new Date(created + 300_000).toISOString(),
  ...over,
});

test.each([
  ['a casual rematch offered to the bot', offer(), 0, true],
  ['a challenge that is no rematch (left alone)', offer({ rematchOf: null }), 0, false],
  ['a rated rematch (the bot plays casual games only)', offer({ rated: true }), 0, false],
  [
    "the bot's own offer",
    offer({ challenger: { id: 'bot', name: 'bot-lobby' }, opponent: { id: 'p', name: 'p' } }),
    0,
    false,
  ],
  ['an offer already accepted', offer({ status: 'accepted', gameId: 'g2' }), 0, false],
  ['an offer past its time, not yet marked expired', offer(), 300_000, false],
] as const)('%s: %s', (_, c, elapsed, expected) => {
  expect(worthAccepting(c, 'bot', created + elapsed)).toBe(expected);
});
