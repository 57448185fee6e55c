import type { LiveGame, SeekView } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import { DEFAULT_FIELDS } from '../src/shogi/clock-choice.js';
import { ratingText } from '../src/shogi/rating-text.js';
import { type CreateFields, createRequest } from '../src/views/create-terms.js';
import { nextOrder, sortSeeks } from '../src/views/seek-order.js';
import { topRated } from '../src/views/tv-pick.js';

const fields = (over: Partial<CreateFields> = {}): CreateFields => ({
  opponent: 'anyone',
  friend: '',
  engineId: 'engine-3',
  clock: DEFAULT_FIELDS,
  rated: false,
  color: 'random',
  handicap: '',
  ...over,
});
const TEN_THIRTY = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 } as const;

describe('the Create a game dialog', () => {
  test('anyone: a seek on the terms chosen, the handicap included', () => {
    expect(createRequest(fields({ rated: true, color: 'gote', handicap: 'bishop' }))).toEqual({
      ok: true,
      kind: 'seek',
      body: { timeControl: TEN_THIRTY, rated: true, color: 'gote', handicap: 'bishop' },
    });
  });

  test('a friend: a challenge by name, and a name is needed', () => {
    expect(createRequest(fields({ opponent: 'friend', friend: '  hanako ' }))).toMatchObject({
      ok: true,
      kind: 'challenge',
      body: { opponent: 'hanako', timeControl: TEN_THIRTY, rated: false, color: 'random' },
    });
    expect(createRequest(fields({ opponent: 'friend' }))).toEqual({
      ok: false,
      error: "Enter your friend's name or player id.",
    });
  });

  test('the computer: a bot game at the level, never rated, so no clock is needed', () => {
    expect(
      createRequest(
        fields({ opponent: 'engine', rated: true, color: 'sente', clock: { ...DEFAULT_FIELDS, kind: 'unlimited' } }),
      ),
    ).toEqual({
      ok: true,
      kind: 'engine',
      botId: 'engine-3',
      body: { side: 'sente', timeControl: { kind: 'unlimited' } },
    });
  });

  test('a rated game needs a clock; a bad clock is named', () => {
    expect(createRequest(fields({ rated: true, clock: { ...DEFAULT_FIELDS, kind: 'unlimited' } }))).toEqual({
      ok: false,
      error: 'A rated game needs a clock.',
    });
    expect(createRequest(fields({ clock: { ...DEFAULT_FIELDS, periods: '9' } }))).toEqual({
      ok: false,
      error: 'Periods must be 1 to 5',
    });
  });
});

const seek = (id: string, rating: number, main: number, name = id): SeekView => ({
  id,
  player: { id: `p-${id}`, name },
  rating,
  timeControl: { kind: 'fischer', mainSeconds: main, incrementSeconds: 0 },
  rated: false,
  ratingRange: null,
  color: 'random',
  ruleset: 'default',
  handicap: null,
  status: 'open',
  gameId: null,
  side: null,
  createdAt: `2026-01-01T00:00:0${id.length}Z`,
  expiresAt: '2026-01-02T00:00:00Z',
});

describe('the open seeks', () => {
  const seeks = [seek('a', 1500, 600, 'Bo'), seek('b', 1800, 180, 'al'), seek('c', 1650, 1800, 'Cy')];
  test('sorted by rating, clock length or player, either way', () => {
    const ids = (order: Parameters<typeof sortSeeks>[1]) => sortSeeks(seeks, order).map((s) => s.id);
    expect(ids({ key: 'rating', descending: true })).toEqual(['b', 'c', 'a']);
    expect(ids({ key: 'clock', descending: false })).toEqual(['b', 'a', 'c']);
    expect(ids({ key: 'player', descending: false })).toEqual(['b', 'a', 'c']);
  });
  test('a click on the sorted column turns it round; another column sorts by itself', () => {
    expect(nextOrder({ key: 'rating', descending: true }, 'rating')).toEqual({ key: 'rating', descending: false });
    expect(nextOrder({ key: 'rating', descending: true }, 'clock')).toEqual({ key: 'clock', descending: false });
  });
});

const live = (id: string, sente: number | null, gote: number | null, over: Partial<LiveGame> = {}): LiveGame => ({
  id,
  players: { sente: { id: `${id}s`, name: 's' }, gote: { id: `${id}g`, name: 'g' } },
  sfen: 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
  ply: 0,
  sideToMove: 'sente',
  lastMove: null,
  status: 'ongoing',
  spectators: 0,
  ratings: {
    sente: sente === null ? null : { rating: sente, provisional: false },
    gote: gote === null ? null : { rating: gote, provisional: false },
  },
  ...over,
});

describe('the TV', () => {
  test('the top-rated ongoing game; a player without a rating counts 1500', () => {
    expect(
      topRated([live('a', 1600, 1600), live('b', 2100, null), live('c', 1900, 1900, { status: 'ended' })])?.id,
    ).toBe('b');
    expect(topRated([live('a', null, null), live('b', null, null, { spectators: 2 })])?.id).toBe('b');
    expect(topRated([])).toBeNull();
  });
  test('a provisional rating reads with a question mark', () => {
    expect(ratingText({ rating: 1662, provisional: true })).toBe('1662?');
    expect(ratingText({ rating: 1840, provisional: false })).toBe('1840');
  });
});
