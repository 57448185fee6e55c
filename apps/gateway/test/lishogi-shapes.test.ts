/**
 * lishogi's shapes (src/lishogi/shapes.ts, account-shapes.ts): the fields its clients read,
 * as its API reference (lishogi-org/api, doc/specs/lishogi-api.yaml) and the bot client
 * TheYoBots/Lishogi-Bot (model.py reads a challenge's id, rated, variant.key, perf.name, speed,
 * timeControl.increment/byoyomi/limit, challenger.name/rating/title) name them.
 */
import type { ChallengeView, GameView, TimeControl } from '@shogi/protocol';
import { HANDICAP_SFENS, START_SFEN } from '@shogi/rules';
import type { AccountSummary, PlayerCard } from '@shogi/store';
import { describe, expect, test } from 'vitest';
import { byUrgency, lishogiAccount, lishogiOngoingGame } from '../src/lishogi/account-shapes.js';
import {
  lishogiChallenge,
  lishogiPlayer,
  lishogiTimeControl,
  perfOf,
  showClock,
  speedOf,
} from '../src/lishogi/shapes.js';

const byoyomi = (mainSeconds: number, byoyomiSeconds: number, periods = 1): TimeControl => ({
  kind: 'byoyomi',
  mainSeconds,
  byoyomiSeconds,
  periods,
});
const fischer = (mainSeconds: number, incrementSeconds: number): TimeControl => ({
  kind: 'fischer',
  mainSeconds,
  incrementSeconds,
});

describe('speed and perf', () => {
  // the bounds are packages/ratings' categories (CATEGORY_BOUNDS), which estimate 40 moves
  test.each([
    [byoyomi(0, 10), 'bullet', 'Bullet'],
    [fischer(300, 0), 'bullet', 'Bullet'],
    [byoyomi(600, 10), 'blitz', 'Blitz'],
    [byoyomi(600, 30), 'rapid', 'Rapid'],
    [byoyomi(1800, 60), 'classical', 'Classical'],
    [{ kind: 'correspondence', daysPerMove: 3 } as TimeControl, 'correspondence', 'Correspondence'],
    [{ kind: 'unlimited' } as TimeControl, 'correspondence', 'Correspondence'],
  ])('%j is %s', (tc, speed, perf) => {
    expect(speedOf(tc)).toBe(speed);
    expect(perfOf(tc)).toEqual({ name: perf });
  });
});

describe('time controls', () => {
  test.each([
    [byoyomi(600, 30), { type: 'clock', limit: 600, increment: 0, byoyomi: 30, periods: 1, show: '10|30' }],
    [byoyomi(0, 10, 3), { type: 'clock', limit: 0, increment: 0, byoyomi: 10, periods: 3, show: '0|10(3)' }],
    [fischer(300, 2), { type: 'clock', limit: 300, increment: 2, byoyomi: 0, periods: 1, show: '5+2' }],
    [fischer(30, 0), { type: 'clock', limit: 30, increment: 0, byoyomi: 0, periods: 1, show: '½+0' }],
    [{ kind: 'correspondence', daysPerMove: 3 } as TimeControl, { type: 'correspondence', daysPerTurn: 3 }],
    [{ kind: 'unlimited' } as TimeControl, { type: 'unlimited' }],
  ])('%j → %j', (tc, expected) => {
    expect(lishogiTimeControl(tc)).toEqual(expected);
  });

  test('minutes that are not whole show as decimals', () => {
    expect(showClock({ limit: 150, increment: 0, byoyomi: 5, periods: 1 })).toBe('2.5|5');
  });
});

const card = (over: Partial<PlayerCard> = {}): PlayerCard => ({
  id: 'p-1',
  name: 'Alice',
  username: 'Alice',
  bot: false,
  rating: { category: 'blitz', rating: 1720, rd: 60, provisional: false, games: 40 },
  ...over,
});

describe('players', () => {
  test("an account: id is the lower-cased username, name the username, as lishogi's", () => {
    expect(lishogiPlayer(card())).toEqual({
      id: 'alice',
      name: 'Alice',
      title: null,
      rating: 1720,
      provisional: false,
    });
  });

  test('a bot account has the BOT title', () => {
    expect(lishogiPlayer(card({ bot: true, username: 'RoboShogi', name: 'RoboShogi' })).title).toBe('BOT');
  });

  test('a guest keeps its player id and name; no rating shows the start, provisional', () => {
    expect(lishogiPlayer(card({ username: null, name: 'guest one', rating: null }))).toEqual({
      id: 'p-1',
      name: 'guest one',
      title: null,
      rating: 1500,
      provisional: true,
    });
  });
});

const challengeView = (over: Partial<ChallengeView> = {}): ChallengeView => ({
  id: 'c-1',
  challenger: { id: 'p-1', name: 'Alice' },
  opponent: { id: 'p-2', name: 'RoboShogi' },
  timeControl: byoyomi(300, 10),
  rated: true,
  color: 'random',
  ruleset: 'default',
  handicap: null,
  sfen: null,
  status: 'pending',
  gameId: null,
  rematchOf: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  expiresAt: '2026-12-01T00:05:00.000Z',
  ...over,
});

describe('challenges', () => {
  const cards = new Map([
    ['p-1', card()],
    ['p-2', card({ id: 'p-2', name: 'RoboShogi', username: 'RoboShogi', bot: true, rating: null })],
  ]);

  test('every field a bot client reads, in lishogi’s names', () => {
    const shaped = lishogiChallenge(challengeView(), { origin: 'https://shogi.test', viewerId: 'p-2', cards });
    expect(shaped).toEqual({
      id: 'c-1',
      url: 'https://shogi.test/api/challenges/c-1',
      status: 'created',
      challenger: { id: 'alice', name: 'Alice', title: null, rating: 1720, provisional: false },
      destUser: { id: 'roboshogi', name: 'RoboShogi', title: 'BOT', rating: 1500, provisional: true },
      variant: { key: 'standard', name: 'Standard', short: 'Std' },
      rated: true,
      speed: 'blitz',
      timeControl: { type: 'clock', limit: 300, increment: 0, byoyomi: 10, periods: 1, show: '5|10' },
      color: 'random',
      perf: { name: 'Blitz' },
      direction: 'in',
      compat: { bot: true, board: true },
    });
  });

  test.each([
    ['pending', 'created'],
    ['accepted', 'accepted'],
    ['declined', 'declined'],
    ['cancelled', 'canceled'],
    ['expired', 'canceled'],
  ] as const)('status %s is lishogi’s %s', (status, expected) => {
    expect(lishogiChallenge(challengeView({ status }), { origin: '', cards }).status).toBe(expected);
  });

  test('the challenger sees it outgoing; a handicap or a custom position is the initial SFEN', () => {
    const out = lishogiChallenge(challengeView({ handicap: 'bishop' }), { origin: '', viewerId: 'p-1', cards });
    expect(out.direction).toBe('out');
    expect(out.initialSfen).toBe(HANDICAP_SFENS.bishop);
    const custom = '4k4/9/9/9/9/9/9/9/4K4 b G 1';
    expect(lishogiChallenge(challengeView({ sfen: custom }), { origin: '', cards }).initialSfen).toBe(custom);
  });

  test('a party without a card shows by name, unrated', () => {
    const shaped = lishogiChallenge(challengeView(), { origin: '', cards: new Map() });
    expect(shaped.challenger).toEqual({ id: 'p-1', name: 'Alice', title: null, rating: 1500, provisional: true });
  });
});

describe('accounts', () => {
  const summary: AccountSummary = {
    id: 'p-2',
    name: 'RoboShogi',
    username: 'RoboShogi',
    bot: true,
    createdAt: new Date('2026-11-01T00:00:00.000Z'),
    ratings: [{ category: 'blitz', rating: 1810, rd: 75, provisional: false, games: 12 }],
  };

  test('a bot account: title BOT, perfs by speed, createdAt in ms', () => {
    expect(lishogiAccount(summary, 'https://shogi.test')).toEqual({
      id: 'roboshogi',
      username: 'RoboShogi',
      title: 'BOT',
      perfs: { blitz: { games: 12, rating: 1810, rd: 75, prog: 0, prov: false } },
      createdAt: Date.parse('2026-11-01T00:00:00.000Z'),
      url: 'https://shogi.test/players/p-2',
    });
  });

  test('a person has no title at all, as on lishogi', () => {
    expect(lishogiAccount({ ...summary, bot: false }, '')).not.toHaveProperty('title');
  });
});

const gameView = (over: Partial<GameView> = {}): GameView => ({
  id: 'g-1',
  ruleset: 'default',
  initialSfen: START_SFEN,
  sfen: START_SFEN,
  moves: [],
  ply: 0,
  sideToMove: 'sente',
  status: 'ongoing',
  result: null,
  players: { sente: { id: 'p-1', name: 'Alice' }, gote: { id: 'p-2', name: 'RoboShogi' } },
  timeControl: byoyomi(300, 10),
  rated: false,
  takeback: null,
  clock: {
    sente: { mainMs: 250_400, periodsLeft: 1, periodMs: 10_000 },
    gote: { mainMs: 300_000, periodsLeft: 1, periodMs: 10_000 },
    running: 'sente',
    started: true,
    deadlineAt: null,
    at: '2026-12-01T00:00:00.000Z',
  },
  lastSeq: 1,
  ...over,
});

describe('ongoing games', () => {
  test("the entry of /api/account/playing and of gameStart: the player's side, turn and time", () => {
    // RoboShogi's view: Alice, its opponent, with her card
    expect(lishogiOngoingGame(gameView({ moves: ['7g7f', '3c3d'], ply: 2 }), 'p-2', card())).toEqual({
      id: 'g-1',
      gameId: 'g-1',
      fullId: 'g-1',
      color: 'gote',
      sfen: START_SFEN,
      hasMoved: true,
      isMyTurn: false,
      lastMove: '3c3d',
      opponent: { id: 'alice', username: 'Alice', rating: 1720 },
      perf: 'blitz',
      rated: false,
      secondsLeft: 310,
      speed: 'blitz',
      variant: { key: 'standard', name: 'Standard' },
      compat: { bot: true, board: true },
    });
  });

  test('gote moves first in a handicap game: it has moved after one move, sente has not', () => {
    const handicap = gameView({ initialSfen: HANDICAP_SFENS.bishop, moves: ['4a3b'], ply: 1, sideToMove: 'sente' });
    expect(lishogiOngoingGame(handicap, 'p-2').hasMoved).toBe(true);
    expect(lishogiOngoingGame(handicap, 'p-1')).toMatchObject({ hasMoved: false, isMyTurn: true });
  });

  test('no clock: no seconds left; an ended game is nobody’s turn', () => {
    const ended = gameView({ clock: null, status: 'ended', timeControl: { kind: 'unlimited' } });
    expect(lishogiOngoingGame(ended, 'p-1')).toMatchObject({ secondsLeft: null, isMyTurn: false });
  });

  test('the most urgent first: my turn, then the least time left, then no clock', () => {
    const entry = (id: string, isMyTurn: boolean, secondsLeft: number | null) =>
      ({ ...lishogiOngoingGame(gameView({ id }), 'p-1'), isMyTurn, secondsLeft }) as const;
    const sorted = [entry('a', false, 10), entry('b', true, null), entry('c', true, 50), entry('d', true, 5)].sort(
      byUrgency,
    );
    expect(sorted.map((g) => g.gameId)).toEqual(['d', 'c', 'b', 'a']);
  });
});
