/**
 * The game service over the in-memory event store (no database): optimistic concurrency,
 * the hub-fed fast path, and how rejections map onto the wire catalog.
 */
import { decide, type EventStore, evolve, initialState } from '@shogi/game';
import { createInMemoryEventStore } from '@shogi/game/testing';
import { beforeEach, describe, expect, test } from 'vitest';
import { ApiError } from '../src/domain/api-error.js';
import { createGameService, type PlayerStore } from '../src/domain/game-service.js';
import type { Player } from '../src/domain/player.js';

const alice: Player = { id: 'alice', name: 'Alice' };
const bob: Player = { id: 'bob', name: 'Bob' };

function players(): PlayerStore {
  const byId = new Map([alice, bob].map((p) => [p.id, p]));
  return {
    insert: async () => {},
    byTokenHash: async () => null,
    byId: async (id) => byId.get(id) ?? null,
  };
}

let events: EventStore;
let enqueued: string[];
let service: ReturnType<typeof createGameService>;

beforeEach(() => {
  events = createInMemoryEventStore();
  enqueued = [];
  service = createGameService({
    events,
    players: players(),
    enqueue: async (gameId, seq) => {
      enqueued.push(`${gameId}-${seq}`);
    },
    publish: async () => {},
    maxRetries: 3,
  });
});

const code = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return 'OK';
};

/** Plays the worker's part: verdicts for everything pending. */
async function validate(gameId: string) {
  let state = initialState();
  for (const e of await events.readStream(gameId)) state = evolve(state, e);
  const d = decide({ type: 'ValidatePending', seq: state.seq, now: new Date() }, state);
  if (!d.ok) throw new Error(d.rejection.message);
  const { events: appended } = await events.append(gameId, state.seq, d.events);
  return appended;
}

describe('the game service', () => {
  test('a submission is appended, then enqueued with the job id of its seq', async () => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    expect(await service.submitMove(game.id, alice, { usi: '7g7f', ply: 0 })).toEqual({ seq: 2 });
    expect(enqueued).toEqual([`${game.id}-2`]);
  });

  test.each([
    ['bob moves first', bob, '3c3d', 0, 'NOT_YOUR_TURN'],
    ['a stale ply', alice, '7g7f', -1, 'STALE_PLY'],
    ['a future ply', alice, '7g7f', 4, 'FUTURE_PLY'],
    ['bad USI', alice, '7g7z', 0, 'MALFORMED_USI'],
    ['an illegal move', alice, '7g7e', 0, 'ILLEGAL_MOVE'],
    ['a stranger', { id: 'eve', name: 'Eve' }, '7g7f', 0, 'NOT_A_PLAYER'],
  ])('%s → %s', async (_name, player, usi, ply, expected) => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    expect(await code(service.submitMove(game.id, player, { usi, ply }))).toBe(expected);
    expect((await events.readStream(game.id)).length).toBe(1);
  });

  test('an unknown game is GAME_NOT_FOUND everywhere', async () => {
    expect(await code(service.view('nope'))).toBe('GAME_NOT_FOUND');
    expect(await code(service.eventsAfter('nope', 0))).toBe('GAME_NOT_FOUND');
    expect(await code(service.submitMove('nope', alice, { usi: '7g7f', ply: 0 }))).toBe('GAME_NOT_FOUND');
  });

  test('a stale cached state never wrongly rejects: the rejection is confirmed on the log', async () => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    await service.submitMove(game.id, alice, { usi: '7g7f', ply: 0 });
    // the worker's verdict is appended but never published to this gateway
    await validate(game.id);
    // the cache still says alice's move is pending; bob's move must be accepted anyway
    expect(await service.submitMove(game.id, bob, { usi: '3c3d', ply: 1 })).toEqual({ seq: 4 });
  });

  test('a stale cached state never wrongly accepts: the append conflicts and the log decides', async () => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    // another gateway records alice's move behind this one's back
    await events.append(game.id, 1, [
      {
        type: 'MoveSubmitted',
        data: { playerId: 'alice', color: 'sente', usi: '2g2f', ply: 0, receivedAt: '2026-01-01T00:00:00Z' },
      },
    ]);
    expect(await code(service.submitMove(game.id, alice, { usi: '7g7f', ply: 0 }))).toBe('MOVE_PENDING');
    expect((await events.readStream(game.id)).length).toBe(2);
  });

  test('published events keep the cache current (the fast path)', async () => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    await service.submitMove(game.id, alice, { usi: '7g7f', ply: 0 });
    const verdict = await validate(game.id);
    service.observe(game.id, verdict);
    expect(service.states.peek(game.id)?.ply).toBe(1);
  });

  test('idempotency keys: a replay answers the original seq, another move under the key is refused', async () => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    const first = await service.submitMove(game.id, alice, { usi: '7g7f', ply: 0, idempotencyKey: 'k' });
    expect(await service.submitMove(game.id, alice, { usi: '7g7f', ply: 0, idempotencyKey: 'k' })).toEqual(first);
    expect(await code(service.submitMove(game.id, alice, { usi: '2g2f', ply: 0, idempotencyKey: 'k' }))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    // the replay of a submission still waiting for its verdict queues its job again (the
    // first 202 may have been lost before the job was queued); one job id, one verdict
    expect(new Set(enqueued)).toEqual(new Set([`${game.id}-${first.seq}`]));
  });

  test('resignation ends the game at once', async () => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    const first = await service.resign(game.id, bob, 'r1');
    // nobody had moved: the ply rule makes it an abort, which nobody wins (packages/game's ply-rule.ts)
    expect(await service.view(game.id)).toMatchObject({
      status: 'ended',
      result: { winner: null, reason: 'abort' },
    });
    expect(await code(service.resign(game.id, alice))).toBe('GAME_OVER');
    // a replay with a key answers the original seq; without one, or by the winner, it is 409
    expect(await service.resign(game.id, bob, 'r1')).toEqual(first);
    expect(await code(service.resign(game.id, bob))).toBe('GAME_OVER');
    // a new request (another key) after the end is refused: only a replay answers the seq
    expect(await code(service.resign(game.id, bob, 'r2'))).toBe('GAME_OVER');
    expect(await code(service.resign(game.id, alice, 'r1'))).toBe('GAME_OVER');
    expect(await code(service.resign(game.id, alice, 'r2'))).toBe('GAME_OVER');
  });

  test('game setup errors', async () => {
    expect(await code(service.createGame({ sente: 'alice', gote: 'alice' }))).toBe('SAME_PLAYER');
    expect(await code(service.createGame({ sente: 'alice', gote: 'zed' }))).toBe('UNKNOWN_PLAYER');
    expect(await code(service.createGame({ sente: 'alice', gote: 'bob', sfen: 'nonsense' }))).toBe('INVALID_SFEN');
    expect(await code(service.createGame({ sente: 'alice', gote: 'bob', sfen: 'x', handicap: 'rook' }))).toBe(
      'INVALID_SETUP',
    );
  });
});

describe('after the append', () => {
  test('a recorded submission is answered even when its job cannot be queued: the sweeper queues it', async () => {
    const warnings: string[] = [];
    const failing = createGameService({
      events,
      players: players(),
      enqueue: async () => {
        throw new Error('redis is down');
      },
      scheduleFlag: async () => {
        throw new Error('redis is down');
      },
      publish: async () => {},
      logger: { warn: (_obj: object, msg: string) => warnings.push(msg) },
      maxRetries: 3,
    });
    const timed = { kind: 'fischer', mainSeconds: 300, incrementSeconds: 2 } as const;
    const game = await failing.createGame({ sente: 'alice', gote: 'bob', timeControl: timed });
    expect(game.status).toBe('ongoing');
    const first = await failing.submitMove(game.id, alice, { usi: '7g7f', ply: 0, idempotencyKey: 'k' });
    expect(first).toEqual({ seq: 2 });
    // the replay of a submission still waiting queues its job again, and may fail as well
    expect(await failing.submitMove(game.id, alice, { usi: '7g7f', ply: 0, idempotencyKey: 'k' })).toEqual(first);
    expect((await events.readStream(game.id)).map((e) => e.type)).toEqual(['GameCreated', 'MoveSubmitted']);
    expect(warnings).toHaveLength(3);
  });

  test('every new game is announced once recorded; an announcement that fails does not fail the game', async () => {
    const announced: string[] = [];
    const warnings: string[] = [];
    const announcing = (fail: boolean) =>
      createGameService({
        events,
        players: players(),
        enqueue: async () => {},
        publish: async () => {},
        announceStarted: async (view) => {
          if (fail) throw new Error('redis is down');
          announced.push(`${view.id} ${view.players.sente.id} ${view.players.gote.id} ${view.status}`);
        },
        logger: { warn: (_obj: object, msg: string) => warnings.push(msg) },
        maxRetries: 3,
      });
    const game = await announcing(false).createGame({ sente: 'alice', gote: 'bob' });
    expect(announced).toEqual([`${game.id} alice bob ongoing`]);
    const unannounced = await announcing(true).createGame({ sente: 'bob', gote: 'alice' });
    expect(unannounced.status).toBe('ongoing');
    expect(warnings).toEqual(['game start not announced to its players']);
  });
});

describe('idempotency keys belong to the player who used them', () => {
  test('another player’s abort under the same key is a new request, refused once the game is over', async () => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    const aborted = await service.abort(game.id, alice, 'K');
    expect(await service.abort(game.id, alice, 'K')).toEqual(aborted);
    expect(await code(service.abort(game.id, bob, 'K'))).toBe('GAME_OVER');
  });

  test('the same holds for resignations and impasse declarations', async () => {
    const resigned = await service.createGame({ sente: 'alice', gote: 'bob' });
    const r = await service.resign(resigned.id, alice, 'K');
    expect(await service.resign(resigned.id, alice, 'K')).toEqual(r);
    expect(await code(service.resign(resigned.id, bob, 'K'))).toBe('GAME_OVER');
    // a key replays only the request it was used for
    expect(await code(service.abort(resigned.id, alice, 'K'))).toBe('GAME_OVER');

    const declared = await service.createGame({ sente: 'alice', gote: 'bob' });
    const d = await service.declareImpasse(declared.id, alice, 'K');
    expect(await service.declareImpasse(declared.id, alice, 'K')).toEqual(d);
    expect(await code(service.declareImpasse(declared.id, bob, 'K'))).toBe('GAME_OVER');
    expect(await code(service.resign(declared.id, alice, 'K'))).toBe('GAME_OVER');
  });

  test('and for moves: the opponent’s move under the same key is recorded as its own', async () => {
    const game = await service.createGame({ sente: 'alice', gote: 'bob' });
    const mine = await service.submitMove(game.id, alice, { usi: '7g7f', ply: 0, idempotencyKey: 'K' });
    await validate(game.id);
    const theirs = await service.submitMove(game.id, bob, { usi: '3c3d', ply: 1, idempotencyKey: 'K' });
    expect(theirs.seq).toBeGreaterThan(mine.seq);
  });
});

describe('commands on an ended game', () => {
  /** The service over a store that counts its stream reads. */
  function counted() {
    let reads = 0;
    const inner = createInMemoryEventStore();
    const store: EventStore = {
      append: (...args) => inner.append(...args),
      readAll: (...args) => inner.readAll(...args),
      readStream: (...args) => {
        reads++;
        return inner.readStream(...args);
      },
    };
    const counting = createGameService({
      events: store,
      players: players(),
      enqueue: async () => {},
      publish: async () => {},
      maxRetries: 3,
    });
    return { service: counting, store, reads: () => reads };
  }

  test('a replay or a new command on a game this gateway ended reads nothing', async () => {
    const { service: s, reads } = counted();
    const game = await s.createGame({ sente: 'alice', gote: 'bob' });
    const resigned = await s.resign(game.id, bob, 'r1');
    const before = reads();
    for (let i = 0; i < 100; i++) expect(await s.resign(game.id, bob, 'r1')).toEqual(resigned);
    expect(await code(s.resign(game.id, bob, 'r2'))).toBe('GAME_OVER');
    expect(await code(s.abort(game.id, alice))).toBe('GAME_OVER');
    expect(await code(s.submitMove(game.id, alice, { usi: '7g7f', ply: 0 }))).toBe('GAME_OVER');
    expect(reads() - before).toBe(0);
  });

  test('a game ended elsewhere is read once, then answered from the cache', async () => {
    const { service: s, store, reads } = counted();
    const game = await s.createGame({ sente: 'alice', gote: 'bob' });
    // another gateway ends the game: this one has not seen it
    const other = createGameService({
      events: store,
      players: players(),
      enqueue: async () => {},
      publish: async () => {},
      maxRetries: 3,
    });
    const resigned = await other.resign(game.id, bob, 'r1');
    const before = reads();
    for (let i = 0; i < 100; i++) expect(await s.resign(game.id, bob, 'r1')).toEqual(resigned);
    for (let i = 0; i < 100; i++) expect(await code(s.resign(game.id, alice, 'r1'))).toBe('GAME_OVER');
    expect(reads() - before).toBeLessThanOrEqual(1);
  });
});

describe('takebacks', () => {
  const BYOYOMI = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 } as const;
  async function twoMoves(options: Parameters<typeof service.createGame>[1] = {}) {
    const game = await service.createGame({ sente: alice.id, gote: bob.id, timeControl: BYOYOMI }, options);
    for (const [player, usi, ply] of [
      [alice, '7g7f', 0],
      [bob, '3c3d', 1],
    ] as const) {
      await service.submitMove(game.id, player, { usi, ply });
      await validate(game.id);
    }
    return game.id;
  }

  test('a game under the CSA clock rules refuses takebacks, whatever the preferences', async () => {
    const csa = await twoMoves({ clockRules: 'csa' });
    expect(await code(service.takeback(csa, alice, 'propose'))).toBe('TAKEBACK_NOT_ALLOWED');
    const standard = await twoMoves();
    expect(await code(service.takeback(standard, alice, 'propose'))).toBe('OK');
  });

  test('an accepted takeback schedules the flag check of the turn it starts', async () => {
    const scheduled: number[] = [];
    const withFlags = createGameService({
      events,
      players: players(),
      enqueue: async () => {},
      publish: async () => {},
      scheduleFlag: async (_gameId, state) => {
        scheduled.push(state.ply);
      },
      maxRetries: 3,
    });
    const gameId = await twoMoves();
    await withFlags.takeback(gameId, bob, 'propose');
    expect(scheduled).toEqual([]);
    await withFlags.takeback(gameId, alice, 'accept');
    expect(scheduled).toEqual([1]);
  });

  test('a rated game asks both players’ preferences; casual only refuses it', async () => {
    const prefs = new Map([
      [alice.id, 'always'],
      [bob.id, 'casual'],
    ] as const);
    const withPrefs = createGameService({
      events,
      players: players(),
      enqueue: async () => {},
      publish: async () => {},
      takebackPreferences: async () => prefs,
      maxRetries: 3,
    });
    const rated = await withPrefs.createGame({ sente: alice.id, gote: bob.id, timeControl: BYOYOMI, rated: true });
    await withPrefs.submitMove(rated.id, alice, { usi: '7g7f', ply: 0 });
    await validate(rated.id);
    expect(await code(withPrefs.takeback(rated.id, alice, 'propose'))).toBe('TAKEBACK_NOT_ALLOWED');
  });
});
