/**
 * lishogi's game routes against what a client should not send: malformed and hostile USI in
 * the path, other people's games, finished games, the wrong API or scope. Every refusal is
 * lishogi's JSON error with its status (400 for what the game refuses, 404 for a game that is
 * not there or not yours), and the players' streams go on as if nothing had been sent.
 */
import { loadConfig } from '@shogi/gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PERPETUAL_CYCLE, PERPETUAL_SFEN } from './fixtures.js';
import { NO_LIMIT, type Stack, startStack } from './harness.js';
import { gameBetween, get, move, openStream, type Person, person, post } from './lishogi-client.js';
import { NdjsonReader } from './ndjson-client.js';

let stack: Stack;
let alice: Person;
let bob: Person;
let carol: Person;
beforeAll(async () => {
  const defaults = loadConfig({}).rateLimits;
  stack = await startStack({
    listen: true,
    config: { rateLimits: { ...defaults, auth: NO_LIMIT, moves: NO_LIMIT } },
  });
  [alice, bob, carol] = [await person(stack, 'alice'), await person(stack, 'bob'), await person(stack, 'carol')];
});
afterAll(async () => stack?.close());

const BYOYOMI = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 } as const;

/** lishogi's refusal: the status, and a JSON body whose `error` says why. */
function expectRefused(res: { status: number; body: unknown }, status: number, code?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ error: expect.any(String), ...(code === undefined ? {} : { code }) });
}

describe('USI in the path', () => {
  test('+ and * come as they are or %-encoded, and are the same move', async () => {
    const gameId = await gameBetween(stack, alice, bob, { timeControl: BYOYOMI });
    const stream = await openStream(stack, gameId, bob.token);
    await stream.next();
    await move(stack, gameId, alice.token, '7g7f');
    await move(stack, gameId, bob.token, '3c3d');
    await move(stack, gameId, alice.token, '8h2b%2B');
    await move(stack, gameId, bob.token, '3a2b');
    await move(stack, gameId, alice.token, 'B%2a4e');
    await move(stack, gameId, bob.token, '2b3c');
    await move(stack, gameId, alice.token, '4e3d');
    const states = [];
    for (let i = 0; i < 7; i++) states.push(await stream.nextOf('gameState'));
    expect(states.at(-1)).toMatchObject({ moves: '7g7f 3c3d 8h2b+ 3a2b B*4e 2b3c 4e3d', status: 'started' });
    stream.close();
  });
});

describe('hostile calls', () => {
  test('are refused with lishogi`s errors, and the streams carry on', async () => {
    const gameId = await gameBetween(stack, alice, bob, { timeControl: BYOYOMI });
    const s = await openStream(stack, gameId, alice.token);
    const g = await openStream(stack, gameId, bob.token);
    await s.next();
    await g.next();
    const moveAs = (who: Person, usi: string, id = gameId) =>
      post(stack, `/api/board/game/${id}/move/${usi}`, who.token);
    // 1. not a move
    expectRefused(await moveAs(alice, 'zz'), 400, 'MALFORMED_USI');
    expectRefused(await moveAs(alice, '7g7f%00'), 400);
    expectRefused(await moveAs(alice, '%00'), 400);
    expectRefused(await moveAs(alice, 'x'.repeat(50)), 400);
    expectRefused(await moveAs(alice, 'x'.repeat(500)), 400);
    expectRefused(await moveAs(alice, '%E0%A4%A'), 400);
    expectRefused(await moveAs(alice, '7g7f%20'), 400);
    // 2. a move the rules refuse, and a move out of turn
    expectRefused(await moveAs(alice, '7g7e'), 400, 'ILLEGAL_MOVE');
    expectRefused(await moveAs(alice, 'P*5e'), 400, 'ILLEGAL_MOVE');
    expectRefused(await moveAs(bob, '3c3d'), 400, 'NOT_YOUR_TURN');
    // 3. not your game, no such game: 404
    expectRefused(await moveAs(carol, '7g7f'), 404, 'NOT_A_PLAYER');
    expectRefused(await post(stack, `/api/board/game/${gameId}/resign`, carol.token), 404);
    expectRefused(await post(stack, `/api/board/game/${gameId}/abort`, carol.token), 404);
    expectRefused(await post(stack, `/api/board/game/${gameId}/chat`, carol.token, 'room=player&text=hi'), 404);
    expectRefused(await get(stack, `/api/board/game/${gameId}/chat`, carol.token), 404);
    expectRefused(await moveAs(alice, '7g7f', 'no-such-game'), 404, 'GAME_NOT_FOUND');
    expectRefused(await moveAs(alice, '7g7f', 'a%20b'), 404);
    expectRefused(await moveAs(alice, '7g7f', 'x'.repeat(200)), 400);
    for (const id of [gameId, 'no-such-game']) {
      const refused = await NdjsonReader.open(`${stack.baseUrl}/api/board/game/stream/${id}`, carol.token);
      expect(refused).toMatchObject({ status: 404, body: { error: expect.any(String) } });
    }
    // 4. an unknown command under the game routes
    expectRefused(await post(stack, `/api/board/game/${gameId}/draw/yes`, alice.token), 404);
    // 5. none of it reached the game: the next move is the first, and both streams see it
    await move(stack, gameId, alice.token, '7g7f');
    expect(await s.nextOf('gameState')).toMatchObject({ moves: '7g7f' });
    expect(await g.nextOf('gameState')).toMatchObject({ moves: '7g7f' });
    // 6. a draw offer on a move is taken and ignored: there are no draw offers here
    const withOffer = await post(stack, `/api/board/game/${gameId}/move/3c3d?offeringDraw=true`, bob.token);
    expect(withOffer).toEqual({ status: 200, body: { ok: true } });
    expect(await s.nextOf('gameState')).toMatchObject({ moves: '7g7f 3c3d', sdraw: false, gdraw: false });
    // 7. a finished game refuses every command but chat
    expect((await post(stack, `/api/board/game/${gameId}/resign`, bob.token)).body).toEqual({ ok: true });
    expect((await s.rest()).at(-1)).toMatchObject({ status: 'resign', winner: 'sente' });
    expect((await g.rest()).at(-1)).toMatchObject({ status: 'resign', winner: 'sente' });
    expectRefused(await moveAs(alice, '2g2f'), 400, 'GAME_OVER');
    expectRefused(await post(stack, `/api/board/game/${gameId}/resign`, alice.token), 400, 'GAME_OVER');
    expectRefused(await post(stack, `/api/board/game/${gameId}/abort`, alice.token), 400, 'GAME_OVER');
    expectRefused(await moveAs(bob, 'resign'), 400, 'GAME_OVER');
    expect(await post(stack, `/api/board/game/${gameId}/chat`, alice.token, 'room=player&text=gg')).toEqual({
      status: 200,
      body: { ok: true },
    });
  });

  test('HEAD on a stream answers its headers only', async () => {
    const gameId = await gameBetween(stack, alice, bob, { timeControl: BYOYOMI });
    const res = await fetch(`${stack.baseUrl}/api/board/game/stream/${gameId}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    expect(await res.text()).toBe('');
  });
});

describe('who may use which API', () => {
  test('the Bot API is for bot accounts and bot:play tokens, the Board API for board:play tokens', async () => {
    const gameId = await gameBetween(stack, alice, bob, { timeControl: BYOYOMI });
    const robot = await person(stack, 'robot', ['bot:play']);
    const robotGame = await gameBetween(stack, robot, carol, { timeControl: BYOYOMI });
    // 1. a board:play token on the Bot API, a bot:play token on the Board API: 403
    expectRefused(await post(stack, `/api/bot/game/${gameId}/move/7g7f`, alice.token), 403, 'INSUFFICIENT_SCOPE');
    const botStream = await NdjsonReader.open(`${stack.baseUrl}/api/bot/game/stream/${gameId}`, alice.token);
    expect(botStream).toMatchObject({ status: 403, body: { code: 'INSUFFICIENT_SCOPE' } });
    expectRefused(await post(stack, `/api/board/game/${robotGame}/move/7g7f`, robot.token), 403, 'INSUFFICIENT_SCOPE');
    // 2. no token: 401
    const anonymous = await fetch(`${stack.baseUrl}/api/board/game/${gameId}/move/7g7f`, { method: 'POST' });
    expectRefused({ status: anonymous.status, body: await anonymous.json() }, 401, 'UNAUTHORIZED');
    // 3. the right scope on an account that is no bot: the Bot API refuses it, after the game
    //    is found to be the player's (lishogi's order)
    expectRefused(await post(stack, `/api/bot/game/${robotGame}/move/7g7f`, robot.token), 400, 'BOT_ACCOUNT_REQUIRED');
    const refusedStream = await NdjsonReader.open(`${stack.baseUrl}/api/bot/game/stream/${robotGame}`, robot.token);
    expect(refusedStream).toMatchObject({ status: 400, body: { code: 'BOT_ACCOUNT_REQUIRED' } });
    expectRefused(await post(stack, `/api/bot/game/${gameId}/move/7g7f`, robot.token), 404);
  });
});

describe('a move refused by the worker, after the gateway recorded it', () => {
  test('the POST waits for the verdict and answers 400: perpetual check under the default rules', async () => {
    // gote is in check and to move; sente's rook checks from 1c and 2c in turn: the fourth
    // repetition by sente's check is illegal under `default`, which only the worker's
    // history knows (fixtures.ts)
    const gameId = await gameBetween(stack, alice, bob, { sfen: PERPETUAL_SFEN, ruleset: 'default' });
    const s = await openStream(stack, gameId, alice.token);
    const full = await s.next();
    expect(full).toMatchObject({ initialSfen: PERPETUAL_SFEN, initialFen: PERPETUAL_SFEN });
    const cycle = [...PERPETUAL_CYCLE, ...PERPETUAL_CYCLE, ...PERPETUAL_CYCLE];
    for (const [i, usi] of cycle.slice(0, -1).entries()) {
      await move(stack, gameId, (i % 2 === 0 ? bob : alice).token, usi);
      await s.nextOf('gameState');
    }
    const refused = await post(stack, `/api/board/game/${gameId}/move/${cycle.at(-1)}`, alice.token);
    expectRefused(refused, 400, 'ILLEGAL_MOVE');
    expect(refused.body.error).toContain('perpetual_check');
    // the game goes on with sente to move; another move is played
    await move(stack, gameId, alice.token, '2c2b');
    expect(await s.nextOf('gameState')).toMatchObject({ moves: [...cycle.slice(0, -1), '2c2b'].join(' ') });
    s.close();
  });
});
