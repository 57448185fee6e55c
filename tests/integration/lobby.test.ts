/**
 * The lobby on real PostgreSQL and Redis: seeks pairing into games, two gateways racing
 * for the same seeks, challenges (accept, decline, expiry, replays), rematch offers, and
 * the lobby WebSocket that tells each player what happened.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '@shogi/gateway';
import { CLOSE_CODES, type LobbyMessage, MAX_BAD_FRAMES, type SeekView } from '@shogi/protocol';
import { expireLobby, lobbyDb } from '@shogi/store';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Conditions } from './conditions.js';
import { bearer, call, type Stack, silentLogger, startStack } from './harness.js';

let stack: Stack;
let second: FastifyInstance;
beforeAll(async () => {
  stack = await startStack({ listen: true, worker: false });
  second = await buildApp(stack.config, silentLogger());
});
afterAll(async () => {
  await second?.close();
  await stack?.close();
});

interface TestPlayer {
  id: string;
  name: string;
  token: string;
  /** the player's own client address (seeks are limited per address: lobby-limits.test.ts) */
  address: string;
}
let players = 0;
const newPlayer = async (prefix: string, app: FastifyInstance = stack.app): Promise<TestPlayer> => {
  const res = await call(app, 'POST', '/api/players', { name: `${prefix}-${randomBytes(4).toString('hex')}` });
  if (res.status !== 201) throw new Error(`player: ${res.status} ${JSON.stringify(res.body)}`);
  const n = ++players;
  return { ...res.body, address: `198.18.${n >> 8}.${n & 255}` };
};
/** One new player per name, as a tuple of the names' length. */
const newPlayers = <const Names extends readonly string[]>(...names: Names) =>
  Promise.all(names.map((name) => newPlayer(name))) as Promise<{ -readonly [K in keyof Names]: TestPlayer }>;
const as = (p: TestPlayer) => bearer(p.token);
const post = async (path: string, p: TestPlayer, body?: unknown, app: FastifyInstance = stack.app) => {
  const res = await app.inject({
    method: 'POST',
    url: path,
    remoteAddress: p.address,
    headers: body === undefined ? as(p) : { ...as(p), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.body === '' ? null : JSON.parse(res.body) };
};
const del = async (path: string, p: TestPlayer) => {
  const res = await stack.app.inject({ method: 'DELETE', url: path, headers: as(p) });
  return { status: res.statusCode, body: JSON.parse(res.body) };
};

const blitz = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 } as const;

/** The lobby WebSocket of a player, collecting what it is sent. */
class LobbySocket {
  readonly received: LobbyMessage[] = [];
  private readonly conditions = new Conditions();
  readonly ws: WebSocket;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      this.received.push(JSON.parse(String(data)) as LobbyMessage);
      this.conditions.notify();
    });
  }

  static async open(player: TestPlayer): Promise<LobbySocket> {
    const ws = new WebSocket(`${stack.baseUrl.replace(/^http/, 'ws')}/api/lobby/ws`, {
      headers: { authorization: `Bearer ${player.token}` },
    });
    const socket = new LobbySocket(ws);
    await socket.waitFor((m) => m.type === 'hello');
    return socket;
  }

  async waitFor(match: (m: LobbyMessage) => boolean): Promise<LobbyMessage> {
    await this.conditions.until(
      () => this.received.some(match),
      10_000,
      () => `no matching lobby message in ${JSON.stringify(this.received)}`,
    );
    return this.received.find(match) as LobbyMessage;
  }

  close(): void {
    this.ws.close();
  }
}

describe('seeks', () => {
  test('two compatible seeks pair into one game with the right colours and settings, and both seekers learn it', async () => {
    const alice = await newPlayer('alice');
    const bob = await newPlayer('bob');
    const socket = await LobbySocket.open(alice);
    // 1. alice seeks a rated jsa game as gote: nobody is there, the seek stays open
    const body = { timeControl: blitz, rated: true, color: 'gote', ruleset: 'jsa' };
    const first = await post('/api/seeks', alice, body);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'open', gameId: null, side: null, rating: 1500, color: 'gote' });
    const listed = await call(stack.app, 'GET', '/api/seeks');
    expect(listed.body.seeks.map((s: SeekView) => s.id)).toContain(first.body.id);
    // 2. bob seeks the same terms (fields in another order), colour open, on the other gateway:
    // paired at once, as sente
    const paired = await post(
      '/api/seeks',
      bob,
      {
        ruleset: 'jsa',
        rated: true,
        timeControl: { periods: 1, byoyomiSeconds: 10, mainSeconds: 300, kind: 'byoyomi' },
      },
      second,
    );
    expect(paired.status).toBe(201);
    expect(paired.body).toMatchObject({ status: 'paired', side: 'sente' });
    const gameId = paired.body.gameId as string;
    // 3. the game has the seeks' settings
    const game = await call(stack.app, 'GET', `/api/games/${gameId}`);
    expect(game.body).toMatchObject({
      ruleset: 'jsa',
      rated: true,
      timeControl: blitz,
      players: { sente: { id: bob.id }, gote: { id: alice.id } },
    });
    // 4. alice is told on her lobby socket (on the first gateway, through Redis), and her seek
    // says so to a polling client
    expect(await socket.waitFor((m) => m.type === 'paired')).toEqual({
      type: 'paired',
      seekId: first.body.id,
      gameId,
      color: 'gote',
    });
    expect((await call(stack.app, 'GET', `/api/seeks/${first.body.id}`)).body).toMatchObject({
      status: 'paired',
      gameId,
      side: 'gote',
    });
    const after = await call(stack.app, 'GET', '/api/seeks');
    expect(after.body.seeks.map((s: SeekView) => s.id)).not.toContain(first.body.id);
    socket.close();
  });

  test("once paired, both players' other open seeks are withdrawn", async () => {
    const alice = await newPlayer('alice');
    const bob = await newPlayer('bob');
    const tcOf = (main: number) => ({ kind: 'fischer', mainSeconds: main, incrementSeconds: 7 });
    const aliceOther = (await post('/api/seeks', alice, { timeControl: tcOf(100), rated: false })).body as SeekView;
    await post('/api/seeks', alice, { timeControl: tcOf(200), rated: false });
    const bobOther = (await post('/api/seeks', bob, { timeControl: tcOf(300), rated: false })).body as SeekView;
    const paired = await post('/api/seeks', bob, { timeControl: tcOf(200), rated: false });
    expect(paired.body.status).toBe('paired');
    for (const id of [aliceOther.id, bobOther.id])
      expect((await call(stack.app, 'GET', `/api/seeks/${id}`)).body).toMatchObject({
        status: 'cancelled',
        gameId: null,
      });
  });

  test('incompatible seeks stay open: rated against casual, a rating out of range, the same colour', async () => {
    const tc = { kind: 'fischer', mainSeconds: 181, incrementSeconds: 2 };
    const a = await newPlayer('a');
    const open = await post('/api/seeks', a, { timeControl: tc, rated: false, color: 'sente' });
    expect(open.body.status).toBe('open');
    for (const body of [
      { timeControl: tc, rated: true },
      { timeControl: tc, rated: false, color: 'sente' },
      { timeControl: tc, rated: false, ratingRange: { min: 1600, max: 2000 } },
      { timeControl: tc, rated: false, handicap: 'lance' },
    ]) {
      const res = await post('/api/seeks', await newPlayer('b'), body);
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(res.body.status, JSON.stringify(body)).toBe('open');
    }
    // your own seeks never pair with each other
    const tc3 = { ...tc, incrementSeconds: 3 };
    expect((await post('/api/seeks', a, { timeControl: tc3, rated: false })).body.status).toBe('open');
    expect((await post('/api/seeks', a, { timeControl: tc3, rated: false })).body.status).toBe('open');
  });

  test('the closest rating is paired first, then the oldest; each rating range holds both ways', async () => {
    const tc = { kind: 'fischer', mainSeconds: 600, incrementSeconds: 3 }; // 720 s: blitz
    const rate = async (p: TestPlayer, rating: number) => {
      await sql`insert into ratings (player_id, category, name, rating, rd, volatility, games, wins, losses, draws, updated_at)
        values (${p.id}, 'blitz', ${p.name}, ${rating}, 60, 0.06, 30, 15, 15, 0, now())`.execute(stack.db);
    };
    const [old1500, far1900, near1650, narrow1610, newer1650, me] = await newPlayers(
      'old',
      'far',
      'near',
      'narrow',
      'newer',
      'me',
    );
    for (const [p, r] of [
      [far1900, 1900],
      [near1650, 1650],
      [narrow1610, 1610],
      [newer1650, 1650],
      [me, 1600],
    ] as const)
      await rate(p as TestPlayer, r);
    // the waiting seeks all ask for sente, so they never pair with each other; me for gote
    const seekOf = async (p: TestPlayer, extra: object = {}) =>
      (await post('/api/seeks', p, { timeControl: tc, rated: true, color: 'sente', ...extra })).body as SeekView;
    const s1 = await seekOf(old1500);
    await seekOf(far1900);
    const s3 = await seekOf(near1650);
    // the closest (10 points) but its range leaves me out
    await seekOf(narrow1610, { ratingRange: { min: 1605, max: 1700 } });
    const s5 = await seekOf(newer1650);
    expect(s1.rating).toBe(1500);
    // me (1600): 1610 is out (its range), 1650 twice: the older one
    const mine = await seekOf(me, { color: 'gote', ratingRange: { min: 1400, max: 1800 } });
    expect(mine.status).toBe('paired');
    expect((await call(stack.app, 'GET', `/api/seeks/${s3.id}`)).body.gameId).toBe(mine.gameId);
    // a player seeks the next real-time game once this one has ended
    const resign = async (gameId: string | null) =>
      expect((await post(`/api/games/${gameId}/resign`, me, {})).status).toBe(202);
    await resign(mine.gameId);
    // again: the newer 1650 is now the closest in my range; 1900 is outside it
    const again = await seekOf(me, { color: 'gote', ratingRange: { min: 1400, max: 1800 } });
    expect((await call(stack.app, 'GET', `/api/seeks/${s5.id}`)).body.gameId).toBe(again.gameId);
    await resign(again.gameId);
    // and then the 1500 one; never the 1900 one
    const third = await seekOf(me, { color: 'gote', ratingRange: { min: 1400, max: 1800 } });
    expect((await call(stack.app, 'GET', `/api/seeks/${s1.id}`)).body.gameId).toBe(third.gameId);
    await resign(third.gameId);
    expect((await seekOf(me, { color: 'gote', ratingRange: { min: 1400, max: 1800 } })).status).toBe('open');
  });

  test('a handicap seek pairs the giver (gote) with the receiver (sente) and starts from the handicap position', async () => {
    const giver = await newPlayer('uwate');
    const receiver = await newPlayer('shitate');
    const tc = { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 30, periods: 1 };
    await post('/api/seeks', giver, { timeControl: tc, rated: false, handicap: 'bishop', color: 'gote' });
    const paired = await post('/api/seeks', receiver, { timeControl: tc, rated: false, handicap: 'bishop' });
    expect(paired.body).toMatchObject({ status: 'paired', side: 'sente' });
    const game = (await call(stack.app, 'GET', `/api/games/${paired.body.gameId}`)).body;
    expect(game.players).toMatchObject({ sente: { id: receiver.id }, gote: { id: giver.id } });
    expect(game.sideToMove).toBe('gote');
  });

  test('cancel: only the seeker, a repeat answers the same, and a cancelled or expired seek is never paired', async () => {
    const tc = { kind: 'fischer', mainSeconds: 182, incrementSeconds: 2 };
    const a = await newPlayer('a');
    const b = await newPlayer('b');
    const seek = (await post('/api/seeks', a, { timeControl: tc, rated: false })).body as SeekView;
    expect((await del(`/api/seeks/${seek.id}`, b)).body.code).toBe('NOT_YOUR_SEEK');
    const cancelled = await del(`/api/seeks/${seek.id}`, a);
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect((await del(`/api/seeks/${seek.id}`, a)).body.status).toBe('cancelled');
    expect((await post('/api/seeks', b, { timeControl: tc, rated: false })).body.status).toBe('open');

    // expiry: a seek past its time is listed as expired, not paired, not cancellable
    const tc2 = { kind: 'fischer', mainSeconds: 183, incrementSeconds: 2 };
    const old = (await post('/api/seeks', a, { timeControl: tc2, rated: false })).body as SeekView;
    await sql`update seeks set expires_at = now() - interval '1 second' where id = ${old.id}`.execute(stack.db);
    expect((await call(stack.app, 'GET', `/api/seeks/${old.id}`)).body.status).toBe('expired');
    expect((await call(stack.app, 'GET', '/api/seeks')).body.seeks.map((s: SeekView) => s.id)).not.toContain(old.id);
    expect((await post('/api/seeks', b, { timeControl: tc2, rated: false })).body.status).toBe('open');
    expect((await del(`/api/seeks/${old.id}`, a)).body.code).toBe('SEEK_CLOSED');
    // the sweep writes down what the queries already said
    expect((await expireLobby(lobbyDb(stack.db), new Date())).seeks).toBeGreaterThanOrEqual(1);
    const row = await sql<{ status: string }>`select status from seeks where id = ${old.id}`.execute(stack.db);
    expect(row.rows[0]?.status).toBe('expired');
    expect((await call(stack.app, 'GET', `/api/seeks/${old.id}`)).body.status).toBe('expired');
  });

  test('bad seeks get a 4xx with a catalog code', async () => {
    const a = await newPlayer('a');
    const cases: [unknown, number, string][] = [
      [{ timeControl: { kind: 'unlimited' }, rated: true }, 422, 'INVALID_TIME_CONTROL'],
      [
        { timeControl: { kind: 'fischer', mainSeconds: 0, incrementSeconds: 0 }, rated: false },
        422,
        'INVALID_TIME_CONTROL',
      ],
      [{ timeControl: blitz, rated: true, ratingRange: { min: 1800, max: 1200 } }, 422, 'INVALID_RATING_RANGE'],
      [{ timeControl: blitz, rated: true, color: 'black' }, 400, 'BAD_REQUEST'],
      [{ timeControl: blitz, rated: true, extra: 1 }, 400, 'BAD_REQUEST'],
      [{ timeControl: blitz }, 400, 'BAD_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post('/api/seeks', a, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await call(stack.app, 'POST', '/api/seeks', { timeControl: blitz, rated: false })).status).toBe(401);
    expect((await call(stack.app, 'GET', '/api/seeks/nope')).body.code).toBe('SEEK_NOT_FOUND');
  });
});

test('two gateways racing for open seeks: no seek is ever paired twice, and each target is taken exactly once', async () => {
  // POOLS targets, each with its own time control, and RACERS seekers per target split
  // across the two gateways, all at once
  const POOLS = 24;
  const RACERS = 3;
  const targets = await Promise.all(
    Array.from({ length: POOLS }, async (_, i) => {
      const p = await newPlayer(`target${i}`);
      const tc = { kind: 'fischer', mainSeconds: 1000 + i, incrementSeconds: 1 };
      const seek = (await post('/api/seeks', p, { timeControl: tc, rated: false })).body as SeekView;
      expect(seek.status).toBe('open');
      return { tc, seek };
    }),
  );
  const racers = await Promise.all(Array.from({ length: POOLS * RACERS }, (_, i) => newPlayer(`racer${i}`)));
  const answers = await Promise.all(
    racers.map((p, i) => {
      const target = targets[i % POOLS] as (typeof targets)[number];
      return post('/api/seeks', p, { timeControl: target.tc, rated: false }, i % 2 === 0 ? stack.app : second);
    }),
  );
  for (const a of answers) expect(a.status).toBe(201);
  for (const target of targets) {
    const after = (await call(stack.app, 'GET', `/api/seeks/${target.seek.id}`)).body as SeekView;
    expect(after.status).toBe('paired');
    const takers = answers.filter((a) => a.body.gameId === after.gameId);
    expect(takers).toHaveLength(1);
  }
  // every paired seek shares its game with exactly one other seek, of another player, on the other side
  const { rows } = await sql<{ game_id: string; n: number; players: number; sides: number }>`
    select game_id, count(*)::int as n, count(distinct player_id)::int as players, count(distinct side)::int as sides
    from seeks where status = 'paired' group by game_id`.execute(stack.db);
  for (const r of rows) expect(r).toMatchObject({ n: 2, players: 2, sides: 2 });
  const games = await sql<{ n: number }>`select count(*)::int as n from games`.execute(stack.db);
  const created = await sql<{ n: number }>`
    select count(distinct game_id)::int as n from seeks where status = 'paired'`.execute(stack.db);
  // every game of this file so far came from a pairing (challenges come later)
  expect(games.rows[0]?.n).toBe(created.rows[0]?.n);
});

describe('challenges', () => {
  const tc = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 };

  test('accept: only the challenged player, once; both sides are told the game', async () => {
    const alice = await newPlayer('alice');
    const bob = await newPlayer('bob');
    const carol = await newPlayer('carol');
    const [aliceSocket, bobSocket] = await Promise.all([LobbySocket.open(alice), LobbySocket.open(bob)]);
    // by name
    const made = await post('/api/challenges', alice, {
      opponent: bob.name,
      timeControl: tc,
      rated: true,
      color: 'sente',
    });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect(made.body).toMatchObject({ status: 'pending', challenger: { id: alice.id }, opponent: { id: bob.id } });
    expect(await bobSocket.waitFor((m) => m.type === 'challenge')).toMatchObject({ challenge: { id } });
    expect((await call(stack.app, 'GET', '/api/challenges', undefined, as(bob))).body.incoming[0].id).toBe(id);
    expect((await call(stack.app, 'GET', '/api/challenges', undefined, as(alice))).body.outgoing[0].id).toBe(id);
    expect((await call(stack.app, 'GET', `/api/challenges/${id}`, undefined, as(carol))).body.code).toBe(
      'CHALLENGE_NOT_FOUND',
    );

    expect((await post(`/api/challenges/${id}/accept`, alice)).body.code).toBe('NOT_YOUR_CHALLENGE');
    expect((await post(`/api/challenges/${id}/accept`, carol)).body.code).toBe('CHALLENGE_NOT_FOUND');
    // two accepts at once (on two gateways) and a replay: one game
    const [x, y] = await Promise.all([
      post(`/api/challenges/${id}/accept`, bob),
      post(`/api/challenges/${id}/accept`, bob, undefined, second),
    ]);
    expect(x.status).toBe(200);
    expect(y.body.gameId).toBe(x.body.gameId);
    const replay = await post(`/api/challenges/${id}/accept`, bob);
    expect(replay.body).toMatchObject({ status: 'accepted', gameId: x.body.gameId });
    const gameId = x.body.gameId as string;
    const game = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
    expect(game).toMatchObject({
      rated: true,
      timeControl: tc,
      players: { sente: { id: alice.id }, gote: { id: bob.id } },
    });
    expect(await aliceSocket.waitFor((m) => m.type === 'accepted')).toEqual({
      type: 'accepted',
      challengeId: id,
      gameId,
      color: 'sente',
    });
    expect((await post(`/api/challenges/${id}/decline`, bob)).body.code).toBe('CHALLENGE_CLOSED');
    const sql_ = await sql<{ n: number }>`select count(*)::int as n from games where id = ${gameId}`.execute(stack.db);
    expect(sql_.rows[0]?.n).toBe(1);
    aliceSocket.close();
    bobSocket.close();
  });

  test('decline and cancel: the other side is told; a closed challenge cannot be accepted', async () => {
    const alice = await newPlayer('alice');
    const bob = await newPlayer('bob');
    const aliceSocket = await LobbySocket.open(alice);
    const id = (await post('/api/challenges', alice, { opponent: bob.id, timeControl: tc, rated: false })).body.id;
    const declined = await post(`/api/challenges/${id}/decline`, bob);
    expect(declined.body.status).toBe('declined');
    expect((await post(`/api/challenges/${id}/decline`, bob)).body.status).toBe('declined');
    expect(await aliceSocket.waitFor((m) => m.type === 'declined')).toEqual({ type: 'declined', challengeId: id });
    expect((await post(`/api/challenges/${id}/accept`, bob)).body.code).toBe('CHALLENGE_CLOSED');

    const bobSocket = await LobbySocket.open(bob);
    const id2 = (await post('/api/challenges', alice, { opponent: bob.id, timeControl: tc, rated: false })).body.id;
    const res = await del(`/api/challenges/${id2}`, bob);
    expect(res.body.code).toBe('NOT_YOUR_CHALLENGE');
    expect((await del(`/api/challenges/${id2}`, alice)).body.status).toBe('cancelled');
    expect(await bobSocket.waitFor((m) => m.type === 'cancelled')).toEqual({ type: 'cancelled', challengeId: id2 });
    expect((await post(`/api/challenges/${id2}/accept`, bob)).body.code).toBe('CHALLENGE_CLOSED');
    aliceSocket.close();
    bobSocket.close();
  });

  test('expiry: a challenge past its time shows as expired and cannot be accepted', async () => {
    const alice = await newPlayer('alice');
    const bob = await newPlayer('bob');
    const id = (await post('/api/challenges', alice, { opponent: bob.id, timeControl: tc, rated: false })).body.id;
    await sql`update challenges set expires_at = now() - interval '1 second' where id = ${id}`.execute(stack.db);
    expect((await call(stack.app, 'GET', `/api/challenges/${id}`, undefined, as(bob))).body.status).toBe('expired');
    expect((await post(`/api/challenges/${id}/accept`, bob)).body).toMatchObject({
      code: 'CHALLENGE_CLOSED',
      detail: 'expired',
    });
    await expireLobby(lobbyDb(stack.db), new Date());
    expect((await call(stack.app, 'GET', `/api/challenges/${id}`, undefined, as(bob))).body.status).toBe('expired');
    expect((await post(`/api/challenges/${id}/decline`, bob)).body).toMatchObject({
      code: 'CHALLENGE_CLOSED',
      detail: 'expired',
    });
  });

  test('an account is challenged by its username, in any case, even when a guest has the same name', async () => {
    const username = `Kaede${randomBytes(3).toString('hex')}`;
    // the guest first: once the account exists, no guest may take its username
    expect((await call(stack.app, 'POST', '/api/players', { name: username })).status).toBe(201);
    const account = await call(stack.app, 'POST', '/api/accounts', { username, password: 'a long password' });
    expect(account.status).toBe(201);
    const alice = await newPlayer('alice');
    const made = await post('/api/challenges', alice, {
      opponent: username.toLowerCase(),
      timeControl: tc,
      rated: false,
    });
    expect(made.body.opponent).toEqual({ id: account.body.id, name: username });
  });

  test('bad challenges get a 4xx with a catalog code', async () => {
    const alice = await newPlayer('alice');
    const twin1 = await newPlayer('twin');
    await call(stack.app, 'POST', '/api/players', { name: twin1.name });
    const cases: [unknown, number, string][] = [
      [{ opponent: 'nobody-by-this-name', timeControl: tc, rated: false }, 422, 'UNKNOWN_PLAYER'],
      [{ opponent: alice.id, timeControl: tc, rated: false }, 422, 'SAME_PLAYER'],
      [{ opponent: twin1.name, timeControl: tc, rated: false }, 422, 'AMBIGUOUS_PLAYER'],
      [{ opponent: twin1.id, timeControl: { kind: 'unlimited' }, rated: true }, 422, 'INVALID_TIME_CONTROL'],
      [{ opponent: 'nul\u0000name', timeControl: tc, rated: false }, 400, 'BAD_REQUEST'],
      [{ opponent: 'x'.repeat(65), timeControl: tc, rated: false }, 400, 'BAD_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post('/api/challenges', alice, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    for (const path of ['/api/challenges/nope/accept', '/api/challenges/nope/decline']) {
      expect((await post(path, alice)).body.code).toBe('CHALLENGE_NOT_FOUND');
      // these take no body: one with fields is refused before anything is looked up
      expect((await post(path, alice, { message: 'gg' })).body).toMatchObject({
        code: 'BAD_REQUEST',
        detail: expect.stringMatching(/takes no body/),
      });
    }
    expect((await post('/api/games/nope/rematch', alice)).body.code).toBe('GAME_NOT_FOUND');
    expect((await call(stack.app, 'GET', '/api/challenges')).status).toBe(401);
  });
});

describe('rematch', () => {
  const tc = { kind: 'fischer', mainSeconds: 300, incrementSeconds: 5 };
  const gameBetween = async (a: TestPlayer, b: TestPlayer, extra: object = {}) => {
    const id = (await post('/api/challenges', a, { opponent: b.id, timeControl: tc, rated: true, ...extra })).body.id;
    return (await post(`/api/challenges/${id}/accept`, b)).body.gameId as string;
  };

  test('offered after the end, colours swapped; offering back accepts it', async () => {
    const alice = await newPlayer('alice');
    const bob = await newPlayer('bob');
    const bobSocket = await LobbySocket.open(bob);
    const gameId = await gameBetween(alice, bob, { color: 'sente' });
    expect((await post(`/api/games/${gameId}/rematch`, alice)).body.code).toBe('GAME_NOT_ENDED');
    expect((await post(`/api/games/${gameId}/rematch`, await newPlayer('c'))).body.code).toBe('NOT_A_PLAYER');
    expect((await post(`/api/games/${gameId}/resign`, bob, {})).status).toBe(202);

    const offer = await post(`/api/games/${gameId}/rematch`, alice);
    expect(offer.status).toBe(201);
    expect(offer.body).toMatchObject({ status: 'pending', rematchOf: gameId, color: 'gote', opponent: { id: bob.id } });
    expect(await bobSocket.waitFor((m) => m.type === 'rematch')).toMatchObject({ challenge: { id: offer.body.id } });
    const repeat = await post(`/api/games/${gameId}/rematch`, alice);
    expect([repeat.status, repeat.body.id]).toEqual([200, offer.body.id]);

    const back = await post(`/api/games/${gameId}/rematch`, bob);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ id: offer.body.id, status: 'accepted' });
    const rematch = (await call(stack.app, 'GET', `/api/games/${back.body.gameId}`)).body;
    expect(rematch).toMatchObject({
      rated: true,
      timeControl: tc,
      players: { sente: { id: bob.id }, gote: { id: alice.id } },
    });
    // offering again once accepted answers the same game
    expect((await post(`/api/games/${gameId}/rematch`, alice)).body.gameId).toBe(back.body.gameId);
    bobSocket.close();
  });

  test('in a handicap game the giver stays the giver; the opponent may accept with the challenge route', async () => {
    const giver = await newPlayer('uwate');
    const receiver = await newPlayer('shitate');
    const gameId = await gameBetween(giver, receiver, { color: 'gote', handicap: 'rook', rated: false });
    const first = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
    expect(first.players.gote.id).toBe(giver.id);
    await post(`/api/games/${gameId}/resign`, giver, {});
    const offer = await post(`/api/games/${gameId}/rematch`, receiver);
    expect(offer.body).toMatchObject({ color: 'sente', handicap: 'rook' });
    const accepted = await post(`/api/challenges/${offer.body.id}/accept`, giver);
    const rematch = (await call(stack.app, 'GET', `/api/games/${accepted.body.gameId}`)).body;
    expect(rematch.players).toMatchObject({ sente: { id: receiver.id }, gote: { id: giver.id } });
    expect(rematch.initialSfen).toBe(first.initialSfen);
  });
});

describe('one real-time game at a time', () => {
  const resign = (gameId: string, p: TestPlayer) => post(`/api/games/${gameId}/resign`, p, {});
  /** A real-time game between two players, started outside the lobby (POST /api/games, by an operator). */
  const realTimeGame = async (sente: TestPlayer, gote: TestPlayer): Promise<string> => {
    const body = {
      sente: sente.id,
      gote: gote.id,
      timeControl: { kind: 'fischer', mainSeconds: 900, incrementSeconds: 0 },
    };
    const res = await call(stack.app, 'POST', '/api/games', body, bearer(stack.adminToken));
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  /** The ids of a player's ongoing games with a byoyomi or Fischer clock, read from the database. */
  const realTimeGamesOf = async (p: TestPlayer): Promise<string[]> => {
    const { rows } = await sql<{ id: string }>`
      select g.id from games g join game_events e on e.game_id = g.id and e.seq = 1
      where g.status = 'ongoing' and (g.sente_id = ${p.id} or g.gote_id = ${p.id})
        and e.payload->'timeControl'->>'kind' in ('byoyomi', 'fischer')`.execute(stack.db);
    return rows.map((r) => r.id);
  };
  const seekStatus = async (id: string) => ((await call(stack.app, 'GET', `/api/seeks/${id}`)).body as SeekView).status;

  test('two opponents answering two pools of one player at once: one game, and her other seek withdrawn (repeated)', async () => {
    for (let trial = 0; trial < 8; trial++) {
      const [a, b, c] = await newPlayers('two-pools', 'byo', 'fis');
      const byoyomi = { kind: 'byoyomi', mainSeconds: 180 + trial, byoyomiSeconds: 10, periods: 1 };
      const fischer = { kind: 'fischer', mainSeconds: 300 + trial, incrementSeconds: 3 };
      const s1 = (await post('/api/seeks', a, { timeControl: byoyomi, rated: false })).body as SeekView;
      const s2 = (await post('/api/seeks', a, { timeControl: fischer, rated: false })).body as SeekView;
      expect([s1.status, s2.status]).toEqual(['open', 'open']);
      const [x, y] = await Promise.all([
        post('/api/seeks', b, { timeControl: byoyomi, rated: false }),
        post('/api/seeks', c, { timeControl: fischer, rated: false }, second),
      ]);
      expect([x.status, y.status]).toEqual([201, 201]);
      const statuses = [x.body.status, y.body.status].sort();
      expect(statuses, `trial ${trial}`).toEqual(['open', 'paired']);
      expect(await realTimeGamesOf(a), `trial ${trial}`).toHaveLength(1);
      expect([await seekStatus(s1.id), await seekStatus(s2.id)].sort()).toEqual(['cancelled', 'paired']);
    }
  });

  test('a player in a real-time game posts no real-time seek, may post a correspondence one, and her open seek waits for the end', async () => {
    const [a, z, b, c] = await newPlayers('busy', 'z', 'b', 'c');
    const tc = { kind: 'fischer', mainSeconds: 240, incrementSeconds: 4 };
    const leftover = (await post('/api/seeks', a, { timeControl: tc, rated: false })).body as SeekView;
    const gameId = await realTimeGame(a, z);
    const refused = await post('/api/seeks', a, { timeControl: blitz, rated: false });
    expect([refused.status, refused.body.code]).toEqual([409, 'ALREADY_PLAYING']);
    expect(refused.body.detail).toContain(gameId);
    const correspondence = await post('/api/seeks', a, {
      timeControl: { kind: 'correspondence', daysPerMove: 3 },
      rated: false,
    });
    expect([correspondence.status, correspondence.body.status]).toEqual([201, 'open']);
    // b would pair with a's older seek, but a is playing: b's seek waits
    const waiting = await post('/api/seeks', b, { timeControl: tc, rated: false });
    expect(waiting.body.status).toBe('open');
    expect(await seekStatus(leftover.id)).toBe('open');
    expect((await resign(gameId, a)).status).toBe(202);
    // once her game is over, her seek (the oldest) pairs again
    const paired = await post('/api/seeks', c, { timeControl: tc, rated: false });
    expect(paired.body.status).toBe('paired');
    expect((await call(stack.app, 'GET', `/api/seeks/${leftover.id}`)).body.gameId).toBe(paired.body.gameId);
  });

  test('a challenge or rematch starts no second real-time game: ALREADY_PLAYING, OPPONENT_PLAYING; correspondence is not limited', async () => {
    const [a, x, z, w] = await newPlayers('a', 'x', 'z', 'w');
    const challenge = async (from: TestPlayer, to: TestPlayer, timeControl: object = blitz) =>
      post('/api/challenges', from, { opponent: to.id, timeControl, rated: false });
    const accept = (id: string, p: TestPlayer) => post(`/api/challenges/${id}/accept`, p);
    const open = (await challenge(x, a)).body.id as string;
    const aGame = await realTimeGame(a, z);
    // the challenged player is playing
    const mine = await accept(open, a);
    expect([mine.status, mine.body.code]).toEqual([409, 'ALREADY_PLAYING']);
    expect(mine.body.detail).toContain(aGame);
    expect((await call(stack.app, 'GET', `/api/challenges/${open}`, undefined, as(a))).body.status).toBe('pending');
    // nor may she challenge anyone to a real-time game; correspondence is fine both ways
    expect((await challenge(a, w)).body.code).toBe('ALREADY_PLAYING');
    const corr = { kind: 'correspondence', daysPerMove: 2 };
    const byMe = (await challenge(a, w, corr)).body.id as string;
    expect((await accept(byMe, w)).body.status).toBe('accepted');
    const toMe = (await challenge(w, a, corr)).body.id as string;
    expect((await accept(toMe, a)).body.status).toBe('accepted');
    // her game ends; now the challenger is playing
    await resign(aGame, a);
    const xGame = await realTimeGame(x, w);
    const theirs = await accept(open, a);
    expect([theirs.status, theirs.body.code]).toEqual([409, 'OPPONENT_PLAYING']);
    await resign(xGame, x);
    const done = await accept(open, a);
    expect(done.body.status).toBe('accepted');

    // a rematch of that game: offered by x, accepted by a only once a is free again
    const first = done.body.gameId as string;
    await resign(first, x);
    const offer = await post(`/api/games/${first}/rematch`, x);
    expect(offer.status).toBe(201);
    const again = await realTimeGame(a, z);
    const back = await post(`/api/games/${first}/rematch`, a);
    expect([back.status, back.body.code]).toEqual([409, 'ALREADY_PLAYING']);
    expect((await accept(offer.body.id, a)).body.code).toBe('ALREADY_PLAYING');
    await resign(again, a);
    expect((await post(`/api/games/${first}/rematch`, a)).body.status).toBe('accepted');
    expect(await realTimeGamesOf(a)).toHaveLength(1);
  });

  test('accepts and a pairing at once never give one player two real-time games (repeated)', async () => {
    for (let trial = 0; trial < 6; trial++) {
      const [a, b, c, d] = await newPlayers('a', 'b', 'c', 'd');
      const tc = { kind: 'byoyomi', mainSeconds: 420 + trial, byoyomiSeconds: 20, periods: 1 };
      const seek = (await post('/api/seeks', a, { timeControl: tc, rated: false })).body as SeekView;
      const ch1 = (await post('/api/challenges', b, { opponent: a.id, timeControl: blitz, rated: false })).body.id;
      const ch2 = (await post('/api/challenges', c, { opponent: a.id, timeControl: tc, rated: true })).body.id;
      const answers = await Promise.all([
        post(`/api/challenges/${ch1}/accept`, a),
        post(`/api/challenges/${ch2}/accept`, a, undefined, second),
        post('/api/seeks', d, { timeControl: tc, rated: false }),
      ]);
      const started = answers.filter((r) => r.body.gameId !== null && r.body.gameId !== undefined);
      expect(started, `trial ${trial}: ${JSON.stringify(answers.map((r) => r.body))}`).toHaveLength(1);
      expect(await realTimeGamesOf(a)).toHaveLength(1);
      for (const r of answers)
        if (r.body.gameId === null || r.body.gameId === undefined)
          expect(r.status === 201 ? r.body.status : r.body.code).toMatch(/^(open|ALREADY_PLAYING|OPPONENT_PLAYING)$/);
      // a's seek was withdrawn or paired, whichever started her game
      expect(await seekStatus(seek.id)).not.toBe('open');
    }
  });

  test('a crowd seeking in overlapping pools and accepting at once: no error, nobody in two real-time games (repeated)', async () => {
    for (let round = 0; round < 3; round++) {
      const crowd = await Promise.all(Array.from({ length: 10 }, (_, i) => newPlayer(`crowd${i}`)));
      const pools = [0, 1, 2].map((k) => ({ kind: 'fischer', mainSeconds: 500 + 10 * round + k, incrementSeconds: 9 }));
      // everyone asks for sente first, so nothing pairs until the second wave
      for (const [i, p] of crowd.entries())
        for (const k of [i % 3, (i + 1) % 3])
          expect((await post('/api/seeks', p, { timeControl: pools[k], rated: false, color: 'sente' })).status).toBe(
            201,
          );
      // a few challenges among them, so accepts race with pairings of the same players
      const challenges = await Promise.all(
        crowd.slice(0, 4).map(async (p, i) => {
          const to = crowd[(i + 5) % crowd.length] as TestPlayer;
          return {
            to,
            id: (await post('/api/challenges', p, { opponent: to.id, timeControl: blitz, rated: false })).body.id,
          };
        }),
      );
      const answers = await Promise.all([
        ...crowd.map((p, i) =>
          post(
            '/api/seeks',
            p,
            { timeControl: pools[(i + 2) % 3], rated: false, color: 'gote' },
            i % 2 ? second : stack.app,
          ),
        ),
        ...challenges.map(({ to, id }, i) =>
          post(`/api/challenges/${id}/accept`, to, undefined, i % 2 ? stack.app : second),
        ),
      ]);
      for (const a of answers) {
        expect(a.status, JSON.stringify(a.body)).toBeLessThan(500);
        if (a.status >= 400) expect(a.body.code).toMatch(/^(ALREADY_PLAYING|OPPONENT_PLAYING)$/);
      }
      for (const p of crowd) expect((await realTimeGamesOf(p)).length, p.name).toBeLessThanOrEqual(1);
    }
  });
});

// (WebSocket routes are not in the document, as /api/games/{id}/ws)
test('the OpenAPI document lists the lobby routes', async () => {
  const res = await stack.app.inject({ method: 'GET', url: '/docs/json' });
  expect(res.statusCode).toBe(200);
  expect(Object.keys(JSON.parse(res.body).paths)).toEqual(
    expect.arrayContaining([
      '/api/seeks',
      '/api/seeks/{id}',
      '/api/challenges',
      '/api/challenges/{id}',
      '/api/challenges/{id}/accept',
      '/api/challenges/{id}/decline',
      '/api/games/{id}/rematch',
    ]),
  );
});

describe('per-player limits under concurrency', () => {
  // requests that arrive together each counted before any inserted: 10 seeks all got 201 (limit 5)
  const codes = (answers: { status: number; body: { code?: string } }[]) =>
    answers.map((a) => (a.status === 201 ? 201 : a.body.code)).sort();

  test('ten seeks sent at once by one player: five open, five TOO_MANY_SEEKS', async () => {
    const p = await newPlayer('quota-seeks');
    const odd = { kind: 'byoyomi', mainSeconds: 777, byoyomiSeconds: 7, periods: 1 } as const;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post('/api/seeks', p, { timeControl: odd, rated: false }, i % 2 ? second : stack.app),
      ),
    );
    expect(codes(answers)).toEqual([...Array(5).fill(201), ...Array(5).fill('TOO_MANY_SEEKS')]);
  });

  test('fourteen challenges sent at once: ten pending, four TOO_MANY_CHALLENGES', async () => {
    const [p, q] = await Promise.all([newPlayer('quota-ch'), newPlayer('quota-op')]);
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        post('/api/challenges', p, { opponent: q.id, timeControl: blitz, rated: false }, i % 2 ? second : stack.app),
      ),
    );
    expect(codes(answers)).toEqual([...Array(10).fill(201), ...Array(4).fill('TOO_MANY_CHALLENGES')]);
  });
});

describe('the lobby socket', () => {
  test('is read-only: each client frame gets a LOBBY_READ_ONLY error frame, and MAX_BAD_FRAMES close it', async () => {
    const p = await newPlayer('chatty');
    const socket = await LobbySocket.open(p);
    const closed = new Promise<number>((resolve) => socket.ws.on('close', (code) => resolve(code)));
    socket.ws.send(JSON.stringify({ type: 'seek', rated: false }));
    const error = await socket.waitFor((m) => m.type === 'error');
    expect(error).toMatchObject({ type: 'error', error: { code: 'LOBBY_READ_ONLY' } });
    for (let i = 1; i < MAX_BAD_FRAMES; i++) socket.ws.send('hello?');
    expect(await closed).toBe(CLOSE_CODES.TOO_MANY_ERRORS);
    expect(socket.received.filter((m) => m.type === 'error')).toHaveLength(MAX_BAD_FRAMES);
  });
});
