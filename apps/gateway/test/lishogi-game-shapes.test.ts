/**
 * lishogi's game shapes from a game's facts and clocks. The reference for every field is
 * lishogi's bot JSON view (modules/bot/src/main/BotJsonView.scala in WandererXII/lishogi):
 * clock settings and times in ms, Int.MaxValue for a side without a clock, `startpos` for the
 * standard start, the older `white`/`black`/`initialFen` names beside the new ones. Speeds
 * follow this server's rating categories (packages/ratings' categoryOf bounds).
 */
import type { ClockView, TimeControl } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import { gameRouteStatus, verdictRefusal } from '../src/lishogi/game-errors.js';
import {
  chatLineOf,
  clockOf,
  type GameFacts,
  gameFullOf,
  gameStateOf,
  initialSfenOf,
  NO_CLOCK_MS,
  sideTimeMs,
  statusOf,
} from '../src/lishogi/game-shapes.js';
import { perfOf, speedOf } from '../src/lishogi/shapes.js';

const BYOYOMI: TimeControl = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 2 };
const FISCHER: TimeControl = { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 };
const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

const game = (over: Partial<GameFacts> = {}): GameFacts => ({
  id: 'g1',
  initialSfen: START,
  moves: ['7g7f', '3c3d'],
  takeback: null,
  status: 'ongoing',
  result: null,
  timeControl: BYOYOMI,
  rated: true,
  ...over,
});

const clock = (sente: [number, number, number], gote: [number, number, number]): ClockView => ({
  sente: { mainMs: sente[0], periodsLeft: sente[1], periodMs: sente[2] },
  gote: { mainMs: gote[0], periodsLeft: gote[1], periodMs: gote[2] },
  running: 'sente',
  started: true,
  deadlineAt: null,
  at: '2026-01-01T00:00:00.000Z',
});

describe('statuses', () => {
  test.each([
    ['checkmate', 'mate'],
    ['resignation', 'resign'],
    ['timeout', 'outoftime'],
    ['sennichite', 'repetition'],
    ['perpetual_check', 'perpetualCheck'],
    ['stalemate', 'stalemate'],
    ['impasse', 'impasse27'],
    ['abort', 'aborted'],
    ['something_new', 'unknownFinish'],
  ])('an ending by %s is lishogi`s %s', (reason, status) => {
    expect(statusOf({ status: 'ended', result: { winner: null, reason } })).toBe(status);
  });

  test('a game under way is `started`, before its first move too', () => {
    expect(statusOf({ status: 'ongoing', result: null })).toBe('started');
  });
});

describe('speeds and clocks', () => {
  test.each([
    [FISCHER, 'bullet', 'Bullet'],
    [{ kind: 'fischer', mainSeconds: 300, incrementSeconds: 5 }, 'blitz', 'Blitz'],
    [BYOYOMI, 'rapid', 'Rapid'],
    [{ kind: 'byoyomi', mainSeconds: 3600, byoyomiSeconds: 60, periods: 1 }, 'classical', 'Classical'],
    [{ kind: 'correspondence', daysPerMove: 3 }, 'correspondence', 'Correspondence'],
    [{ kind: 'unlimited' }, 'correspondence', 'Correspondence'],
  ] as [TimeControl, string, string][])('%j is %s', (tc, speed, perf) => {
    expect(speedOf(tc)).toBe(speed);
    expect(perfOf(tc)).toEqual({ name: perf });
  });

  test('clock settings in ms; none without a real-time clock', () => {
    expect(clockOf(BYOYOMI)).toEqual({ initial: 600_000, increment: 0, byoyomi: 30_000, periods: 2 });
    // a Fischer clock has one period of no byoyomi, as lishogi's gameFull example
    expect(clockOf(FISCHER)).toEqual({ initial: 180_000, increment: 2000, byoyomi: 0, periods: 1 });
    expect(clockOf({ kind: 'correspondence', daysPerMove: 1 })).toBeNull();
    expect(clockOf({ kind: 'unlimited' })).toBeNull();
  });

  test('a side`s time is its main time, then what is left of its current period', () => {
    expect(sideTimeMs({ mainMs: 12_345, periodMs: 30_000 })).toBe(12_345);
    expect(sideTimeMs({ mainMs: 0, periodMs: 17_500 })).toBe(17_500);
    expect(sideTimeMs({ mainMs: 0, periodMs: 0 })).toBe(0);
  });
});

describe('gameState', () => {
  test('moves, both sides` times, increments and byoyomi in every state', () => {
    expect(gameStateOf(game(), clock([500_000, 2, 30_000], [0, 1, 12_000]))).toEqual({
      type: 'gameState',
      moves: '7g7f 3c3d',
      btime: 500_000,
      wtime: 12_000,
      binc: 0,
      winc: 0,
      byo: 30_000,
      sdraw: false,
      gdraw: false,
      stakeback: false,
      gtakeback: false,
      status: 'started',
    });
  });

  test('Fischer increments; no clock is lishogi`s Int.MaxValue; an empty game has empty moves', () => {
    const fischer = gameStateOf(game({ timeControl: FISCHER, moves: [] }), clock([90_000, 0, 0], [95_000, 0, 0]));
    expect(fischer).toMatchObject({ moves: '', btime: 90_000, wtime: 95_000, binc: 2000, winc: 2000, byo: 0 });
    const none = gameStateOf(game({ timeControl: { kind: 'unlimited' } }), null);
    expect(none).toMatchObject({ btime: NO_CLOCK_MS, wtime: NO_CLOCK_MS, binc: 0, winc: 0, byo: 0 });
    expect(NO_CLOCK_MS).toBe(2 ** 31 - 1);
  });

  test('the winner when there is one, and none for a draw or an abort', () => {
    const won = game({ status: 'ended', result: { winner: 'gote', reason: 'resignation' } });
    expect(gameStateOf(won, null)).toMatchObject({ status: 'resign', winner: 'gote' });
    const drawn = game({ status: 'ended', result: { winner: null, reason: 'sennichite' } });
    expect(gameStateOf(drawn, null)).not.toHaveProperty('winner');
    expect(gameStateOf(drawn, null).status).toBe('repetition');
  });
});

// players: lishogi-shapes.test.ts (the one shape of a player, shapes.ts)

describe('gameFull', () => {
  test('the game`s immutable part, the older names beside the new ones, and the state', () => {
    const sente = { id: 'alice', name: 'Alice', title: null, rating: 1500, provisional: true };
    const gote = { id: 'bob', name: 'Bob', title: null, rating: 1720, provisional: false };
    const full = gameFullOf(
      game(),
      1_767_225_600_000,
      { sente, gote },
      clock([600_000, 2, 30_000], [600_000, 2, 30_000]),
    );
    expect(full).toEqual({
      type: 'gameFull',
      id: 'g1',
      variant: { key: 'standard', name: 'Standard', short: 'Std' },
      clock: { initial: 600_000, increment: 0, byoyomi: 30_000, periods: 2 },
      speed: 'rapid',
      perf: { name: 'Rapid' },
      rated: true,
      createdAt: 1_767_225_600_000,
      sente,
      gote,
      white: sente,
      black: gote,
      initialSfen: 'startpos',
      initialFen: 'startpos',
      state: gameStateOf(game(), clock([600_000, 2, 30_000], [600_000, 2, 30_000])),
    });
  });

  test('startpos whatever the move number; any other position as its SFEN', () => {
    expect(initialSfenOf(START.replace(/ 1$/, ' 7'))).toBe('startpos');
    const handicap = 'lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1';
    expect(initialSfenOf(handicap)).toBe(handicap);
  });

  test('a chat line', () => {
    const line = { room: 'spectator', username: 'alice', text: 'gg', at: '2026-01-01T00:00:00.000Z' } as const;
    expect(chatLineOf(line)).toEqual({ type: 'chatLine', room: 'spectator', username: 'alice', text: 'gg' });
  });
});

describe('refusals', () => {
  test.each([
    ['GAME_NOT_FOUND', 404, 404],
    ['NOT_A_PLAYER', 403, 404],
    ['NOT_YOUR_TURN', 409, 400],
    ['GAME_OVER', 409, 400],
    ['ILLEGAL_MOVE', 422, 400],
    ['TOO_LATE_TO_ABORT', 409, 400],
    ['MALFORMED_USI', 400, 400],
    ['CONFLICT', 409, 503],
    ['RATE_LIMITED', 429, 429],
    ['UNAUTHORIZED', 401, 401],
    ['INSUFFICIENT_SCOPE', 403, 403],
    ['INTERNAL', 500, 500],
  ] as const)('%s (%i in the catalog) is %i on lishogi`s game routes', (code, status, lishogi) => {
    expect(gameRouteStatus(code, status)).toBe(lishogi);
  });

  test.each([
    ['perpetual_check', 'ILLEGAL_MOVE'],
    ['uchifuzume', 'ILLEGAL_MOVE'],
    ['timeout', 'GAME_OVER'],
    ['game_over', 'GAME_OVER'],
    ['not_your_turn', 'NOT_YOUR_TURN'],
    ['stale_ply', 'STALE_PLY'],
    ['malformed_usi', 'MALFORMED_USI'],
  ])('a verdict refusing with %s is %s', (reason, code) => {
    expect(verdictRefusal(reason)).toBe(code);
  });
});
