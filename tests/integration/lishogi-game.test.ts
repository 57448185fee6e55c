/**
 * Whole games through lishogi's Board API on the real stack (gateway listening, worker,
 * PostgreSQL, Redis), read as a lishogi client reads them: each player's game stream opens
 * with gameFull, then a gameState after each move, with the game's clocks, until the final
 * state, after which the stream ends. Reconnecting, aborting and the players' chat too.
 */
import { buildApp, loadConfig } from '@shogi/gateway';
import { gameChannel } from '@shogi/pipeline';
import { closeClient, type RedisClient } from '@shogi/redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chatChannel } from '../../apps/gateway/src/domain/game-chat.js';
import { MATE_GAME } from './fixtures.js';
import { call, channelListeners, NO_LIMIT, type Stack, silentLogger, startStack, testRedis } from './harness.js';
import { gameBetween, get, move, openStream, type Person, person, post, shownMs } from './lishogi-client.js';
import { type NdjsonLine, NdjsonReader } from './ndjson-client.js';

let stack: Stack;
let redis: RedisClient;
beforeAll(async () => {
  redis = testRedis('lishogi-game');
  const defaults = loadConfig({}).rateLimits;
  // every test registers and logs in its players
  stack = await startStack({ listen: true, config: { rateLimits: { ...defaults, auth: NO_LIMIT, guests: NO_LIMIT } } });
});
afterAll(async () => {
  if (redis !== undefined) await closeClient(redis);
  await stack?.close();
});

const BYOYOMI = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 } as const;

/** Both players' streams, each opened by its player and checked to start with gameFull. */
async function streams(gameId: string, sente: Person, gote: Person) {
  const s = await openStream(stack, gameId, sente.token);
  const g = await openStream(stack, gameId, gote.token);
  const sFull = await s.next();
  const gFull = await g.next();
  expect(sFull?.type).toBe('gameFull');
  expect(gFull?.type).toBe('gameFull');
  return { s, g, full: sFull as NdjsonLine };
}

/** The clocks of a state against the game's own (GET /api/games/:id, read after the state). */
async function expectClocksOfGame(gameId: string, state: NdjsonLine) {
  const { clock } = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
  const game = { btime: shownMs(clock.sente), wtime: shownMs(clock.gote) };
  for (const [key, side] of [
    ['btime', 'sente'],
    ['wtime', 'gote'],
  ] as const) {
    const shown = state[key] as number;
    // the running side was charged until each read: the state was written first, so it shows
    // as much or a little more; the other side's time stands still and is the same
    if (clock.running === side) {
      expect(shown).toBeGreaterThanOrEqual(game[key]);
      expect(shown - game[key]).toBeLessThan(1000);
    } else expect(shown).toBe(game[key]);
  }
}

describe('a whole game through the Board API', () => {
  test('from gameFull to checkmate: a state after every move, clocks as the game has them, then the end', async () => {
    // 1. two people, each with a board:play token, and a game with a clock
    const alice = await person(stack, 'Alice');
    const bob = await person(stack, 'Bob');
    const gameId = await gameBetween(stack, alice, bob, { timeControl: BYOYOMI });
    // 2. both streams start with gameFull, in lishogi's shape
    const { s, g, full } = await streams(gameId, alice, bob);
    expect(full).toMatchObject({
      type: 'gameFull',
      id: gameId,
      variant: { key: 'standard', name: 'Standard', short: 'Std' },
      clock: { initial: 300_000, increment: 0, byoyomi: 10_000, periods: 1 },
      // 300 s + 40 moves of 10 s: the blitz category (packages/ratings)
      speed: 'blitz',
      perf: { name: 'Blitz' },
      rated: false,
      sente: { id: alice.username.toLowerCase(), name: alice.username, title: null, rating: 1500, provisional: true },
      gote: { id: bob.username.toLowerCase(), name: bob.username, title: null, rating: 1500, provisional: true },
      initialSfen: 'startpos',
      state: {
        type: 'gameState',
        moves: '',
        btime: 300_000,
        wtime: 300_000,
        binc: 0,
        winc: 0,
        byo: 10_000,
        status: 'started',
      },
    });
    expect(full.white).toEqual(full.sente);
    expect(full.initialFen).toBe('startpos');
    expect(Math.abs((full.createdAt as number) - Date.now())).toBeLessThan(60_000);
    expect(full.state).not.toHaveProperty('winner');
    // 3. the players move in turn (the path carries + and * as they are: 7a5c+, B*6b, S*5b);
    //    both streams get each move as one state, whose clocks are the game's
    for (const [i, usi] of MATE_GAME.entries()) {
      await move(stack, gameId, (i % 2 === 0 ? alice : bob).token, usi);
      const moves = MATE_GAME.slice(0, i + 1).join(' ');
      const [fromS, fromG] = [await s.nextOf('gameState'), await g.nextOf('gameState')];
      expect(fromS).toMatchObject({ moves });
      expect(fromG).toMatchObject({ moves });
      if (i < MATE_GAME.length - 1) {
        expect(fromS).toMatchObject({ status: 'started', byo: 10_000 });
        await expectClocksOfGame(gameId, fromS as NdjsonLine);
      } else {
        // 4. the mate: the last state has the status and the winner, and the streams end
        expect(fromS).toMatchObject({ status: 'mate', winner: 'sente' });
        expect(fromG).toMatchObject({ status: 'mate', winner: 'sente' });
      }
    }
    expect(await s.rest()).toEqual([]);
    expect(await g.rest()).toEqual([]);
    expect(s.ended && g.ended).toBe(true);
    // 5. a stream opened after the end is the final gameFull, and ends at once
    const late = await openStream(stack, gameId, bob.token);
    const lateFull = await late.next();
    expect(lateFull?.state).toMatchObject({ moves: MATE_GAME.join(' '), status: 'mate', winner: 'sente' });
    expect(await late.rest()).toEqual([]);
  });

  test('resignation, posted as the move `resign`: the final state names the winner', async () => {
    const carol = await person(stack, 'carol');
    const dave = await person(stack, 'dave');
    const gameId = await gameBetween(stack, carol, dave, {
      timeControl: { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 },
    });
    const { s, g, full } = await streams(gameId, carol, dave);
    expect(full.clock).toEqual({ initial: 180_000, increment: 2000, byoyomi: 0, periods: 1 });
    expect(full.state).toMatchObject({ binc: 2000, winc: 2000, byo: 0 });
    await move(stack, gameId, carol.token, '7g7f');
    await move(stack, gameId, dave.token, '3c3d');
    expect((await post(stack, `/api/board/game/${gameId}/move/resign`, carol.token)).body).toEqual({ ok: true });
    const states = [...(await s.rest()), ...(await g.rest())].filter((l) => l.type === 'gameState');
    expect(states.at(-1)).toMatchObject({ moves: '7g7f 3c3d', status: 'resign', winner: 'gote' });
    expect(states.filter((l) => l.status === 'resign')).toHaveLength(2);
    // the game's own view agrees
    const view = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
    expect(view.result).toEqual({ winner: 'gote', reason: 'resignation' });
  });

  test('an unlimited game: no clock, and lishogi`s "no clock" times', async () => {
    const erin = await person(stack, 'erin');
    const frank = await person(stack, 'frank');
    const gameId = await gameBetween(stack, erin, frank);
    const { s, g, full } = await streams(gameId, erin, frank);
    expect(full).toMatchObject({ clock: null, speed: 'correspondence', perf: { name: 'Correspondence' } });
    expect(full.state).toMatchObject({ btime: 2_147_483_647, wtime: 2_147_483_647, binc: 0, winc: 0, byo: 0 });
    // /resign ends it too; before both sides moved it is an abort, as on lishogi (the ply rule)
    expect((await post(stack, `/api/board/game/${gameId}/resign`, frank.token)).body).toEqual({ ok: true });
    const last = (await s.rest()).at(-1);
    expect(last).toMatchObject({ status: 'aborted' });
    expect(last).not.toHaveProperty('winner');
    g.close();
  });
  test('a flag: the final state is `outoftime`, the loser`s time at zero', async () => {
    const olga = await person(stack, 'olga');
    const pete = await person(stack, 'pete');
    const gameId = await gameBetween(stack, olga, pete, {
      timeControl: { kind: 'fischer', mainSeconds: 1, incrementSeconds: 0 },
    });
    const { s, g } = await streams(gameId, olga, pete);
    await move(stack, gameId, olga.token, '7g7f');
    await move(stack, gameId, pete.token, '3c3d');
    // sente's second of main time (and the lag allowance) runs out; the worker's flag job ends it
    const last = (await s.rest(15_000)).at(-1);
    expect(last).toMatchObject({ moves: '7g7f 3c3d', status: 'outoftime', winner: 'gote', btime: 0 });
    expect((await g.rest(15_000)).at(-1)).toMatchObject({ status: 'outoftime', winner: 'gote' });
  });
});

describe('two gateways', () => {
  test('a player on each: moves and chat lines reach the stream on the other gateway', async () => {
    const other = await buildApp(stack.config, silentLogger());
    const otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
    try {
      const quinn = await person(stack, 'quinn');
      const rosa = await person(stack, 'rosa');
      const gameId = await gameBetween(stack, quinn, rosa, { timeControl: BYOYOMI });
      const opened = await NdjsonReader.open(`${otherUrl}/api/board/game/stream/${gameId}`, rosa.token);
      if (!('reader' in opened)) throw new Error(`refused: ${opened.status}`);
      const far = opened.reader;
      expect((await far.next())?.type).toBe('gameFull');
      // both subscriptions are in place before anything is sent
      await until(async () => (await subscribers(gameId)).every((n) => n >= 1));
      await move(stack, gameId, quinn.token, '7g7f');
      expect(await far.nextOf('gameState')).toMatchObject({ moves: '7g7f' });
      await post(stack, `/api/board/game/${gameId}/chat`, quinn.token, 'room=player&text=from%20A');
      expect(await far.nextOf('chatLine')).toMatchObject({ username: quinn.username, text: 'from A' });
      far.close();
    } finally {
      await other.close();
    }
  });
});

describe('streams come and go', () => {
  test('a client reconnecting mid-game gets a fresh gameFull with the game so far, and carries on', async () => {
    const gina = await person(stack, 'gina');
    const hal = await person(stack, 'hal');
    const gameId = await gameBetween(stack, gina, hal, { timeControl: BYOYOMI });
    const { s, g } = await streams(gameId, gina, hal);
    for (const [i, usi] of ['7g7f', '3c3d', '2g2f', '8c8d'].entries()) {
      await move(stack, gameId, (i % 2 === 0 ? gina : hal).token, usi);
      await g.nextOf('gameState');
    }
    // 1. both connections drop: the server lets the streams go, and with them the game's
    //    and the chat's channels
    s.close();
    g.close();
    await until(async () => (await subscribers(gameId)).every((n) => n === 0));
    // 2. gina reconnects: the game as it stands, clocks running
    const again = await openStream(stack, gameId, gina.token);
    const full = await again.next();
    expect(full).toMatchObject({ type: 'gameFull', state: { moves: '7g7f 3c3d 2g2f 8c8d', status: 'started' } });
    await expectClocksOfGame(gameId, full?.state as NdjsonLine);
    const halAgain = await openStream(stack, gameId, hal.token);
    await halAgain.next();
    // 3. and plays on
    await move(stack, gameId, gina.token, '2f2e');
    expect(await again.nextOf('gameState')).toMatchObject({ moves: '7g7f 3c3d 2g2f 8c8d 2f2e' });
    expect(await halAgain.nextOf('gameState')).toMatchObject({ moves: '7g7f 3c3d 2g2f 8c8d 2f2e' });
    // 4. a second stream of the same player and game replaces the first, as on lishogi
    const third = await openStream(stack, gameId, gina.token);
    expect((await third.next())?.type).toBe('gameFull');
    expect(await again.rest()).toEqual([]);
    third.close();
    halAgain.close();
  });

  test('a player`s stream is no spectator, and keeps the connection alive with empty lines', async () => {
    const ivan = await person(stack, 'ivan');
    const judy = await person(stack, 'judy');
    const gameId = await gameBetween(stack, ivan, judy, { timeControl: BYOYOMI });
    const { s, g } = await streams(gameId, ivan, judy);
    // a spectator's stream counts itself alone
    const watcher = await NdjsonReader.open(`${stack.baseUrl}/api/games/${gameId}/stream`, 'none');
    if (!('reader' in watcher)) throw new Error('the spectator stream was refused');
    expect(await watcher.reader.next()).toMatchObject({ type: 'snapshot', game: { spectators: 1 } });
    watcher.reader.close();
    // lishogi's clients time out after a few quiet seconds without a keep-alive
    await expect(s.next(6_500)).rejects.toThrow(/no line/);
    expect(s.keepAlives).toBeGreaterThanOrEqual(1);
    s.close();
    g.close();
  });

  test('abort before the first moves ends the game for both streams; after them it is refused', async () => {
    const kim = await person(stack, 'kim');
    const lee = await person(stack, 'lee');
    const gameId = await gameBetween(stack, kim, lee, { timeControl: BYOYOMI });
    const { s, g } = await streams(gameId, kim, lee);
    await move(stack, gameId, kim.token, '7g7f');
    // gote has not moved: gote may abort
    expect((await post(stack, `/api/board/game/${gameId}/abort`, lee.token)).body).toEqual({ ok: true });
    const last = (await s.rest()).at(-1);
    expect(last).toMatchObject({ type: 'gameState', moves: '7g7f', status: 'aborted' });
    expect(last).not.toHaveProperty('winner');
    expect((await g.rest()).at(-1)).toMatchObject({ status: 'aborted' });

    const other = await gameBetween(stack, kim, lee, { timeControl: BYOYOMI });
    await move(stack, other, kim.token, '7g7f');
    await move(stack, other, lee.token, '3c3d');
    const late = await post(stack, `/api/board/game/${other}/abort`, kim.token);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: 'TOO_LATE_TO_ABORT' });
    expect(typeof late.body.error).toBe('string');
  });
});

describe('the players` chat', () => {
  test('lines reach both players` streams, form-encoded or JSON, and are kept for GET', async () => {
    const mia = await person(stack, 'mia');
    const ned = await person(stack, 'ned');
    const gameId = await gameBetween(stack, mia, ned, { timeControl: BYOYOMI });
    const { s, g } = await streams(gameId, mia, ned);
    // 1. form-encoded, as lishogi's clients send it
    const hello = await post(stack, `/api/board/game/${gameId}/chat`, mia.token, 'room=player&text=hello%20there');
    expect(hello).toEqual({ status: 200, body: { ok: true } });
    const line = { type: 'chatLine', room: 'player', username: mia.username, text: 'hello there' };
    expect(await s.nextOf('chatLine')).toEqual(line);
    expect(await g.nextOf('chatLine')).toEqual(line);
    // 2. JSON, to the spectators' room; line breaks and bidi controls do not survive
    const json = await post(stack, `/api/board/game/${gameId}/chat`, ned.token, {
      room: 'spectator',
      text: 'good\nluck \u202eevil',
    });
    expect(json.status).toBe(200);
    expect(await s.nextOf('chatLine')).toEqual({
      type: 'chatLine',
      room: 'spectator',
      username: ned.username,
      text: 'good luck evil',
    });
    // 3. moves and lines interleave on one stream
    await move(stack, gameId, mia.token, '7g7f');
    expect(await g.nextOf('gameState')).toMatchObject({ moves: '7g7f' });
    // 4. the players' room, kept
    const kept = await get(stack, `/api/board/game/${gameId}/chat`, ned.token);
    expect(kept).toEqual({ status: 200, body: [{ text: 'hello there', user: mia.username }] });
    // 5. too long, empty, no room: 400 with lishogi's error
    for (const body of [`room=player&text=${'x'.repeat(141)}`, 'room=player&text=', 'text=hi', 'room=lobby&text=hi']) {
      const refused = await post(stack, `/api/board/game/${gameId}/chat`, mia.token, body);
      expect({ body, status: refused.status }).toEqual({ body, status: 400 });
      expect(typeof refused.body.error).toBe('string');
    }
    // 6. a flood is cut (RATE_LIMIT_CHAT_MAX lines per window)
    const statuses: number[] = [];
    for (let i = 0; i < stack.config.rateLimits.chat.max + 1; i++)
      statuses.push((await post(stack, `/api/board/game/${gameId}/chat`, ned.token, 'room=player&text=spam')).status);
    expect(statuses.at(-1)).toBe(429);
    s.close();
    g.close();
  });
});

/** Subscribers on the game's channel and on its chat's, across Redis. */
async function subscribers(gameId: string): Promise<number[]> {
  const prefix = stack.config.channelPrefix;
  return channelListeners(redis, gameChannel(gameId, prefix, stack.config.validateQueues), chatChannel(gameId, prefix));
}

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
