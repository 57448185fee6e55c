import type { SeekView } from '@shogi/protocol';
import { expect, test } from 'vitest';
import { worthAnswering } from '../src/demo/seek-answerer.js';

const created = Date.UTC(2025, 0, 1);
const seek = (over: Partial<SeekView> = {}): SeekView => ({
  id: 's1',
  player: { id: 'person', name: 'person' },
  rating: 1500,
  timeControl: { kind: 'fischer', mainSeconds: 300, incrementSeconds: 5 },
  rated: false,
  ratingRange: null,
  color: 'random',
  ruleset: 'default',
  handicap: null,
  status: 'open',
  gameId: null,
  side: null,
  createdAt: new Date(created).toISOString(),
  expiresAt: new Date(created + 600_000).toISOString(),
  ...over,
});

test.each([
  ['an open casual seek that waited long enough', seek(), 3000, true],
  ['one that has not waited yet', seek(), 2999, false],
  ['a rated seek (left to people)', seek({ rated: true }), 3000, false],
  ["the bot's own seek", seek({ player: { id: 'bot', name: 'bot-lobby' } }), 3000, false],
  ['a seek whose range leaves the bot out', seek({ ratingRange: { min: 1600, max: 2000 } }), 3000, false],
  ['a seek whose range includes the bot', seek({ ratingRange: { min: 1400, max: 1500 } }), 3000, true],
  ['a paired seek', seek({ status: 'paired' }), 3000, false],
] as const)('%s: %s', (_, s, elapsed, expected) => {
  expect(worthAnswering(s, 'bot', created + elapsed, 3000)).toBe(expected);
});
