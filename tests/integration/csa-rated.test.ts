/**
 * Trips (Floodgate's `LOGIN <name> <game>,<trip>`): here the trip is a personal API token of
 * the account `<name>` with the `csa:play` scope. Two players with trips play a rated game,
 * whose rating change the player profile shows; a wrong trip is LOGIN:incorrect and counts
 * against the address like an unknown bearer token, and against the account; past the limit
 * the right trip still logs in.
 */
import { buildApp, loadConfig } from '@shogi/gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CsaClient, pairedGame, play } from './csa-client.js';
import {
  bearer,
  type CsaStack,
  call,
  NO_LIMIT,
  type Stack,
  silentLogger,
  startCsaStack,
  startStack,
} from './harness.js';

let stack: CsaStack;
let port: number;

beforeAll(async () => {
  stack = await startCsaStack({
    // the test registers and logs in more accounts than the per-address limit allows a minute
    rateLimits: { ...loadConfig({}).rateLimits, auth: NO_LIMIT, guests: NO_LIMIT },
  });
  port = stack.csaPort;
});

afterAll(async () => {
  await stack?.close();
});

interface Account {
  readonly id: string;
  readonly username: string;
  readonly session: string;
}

async function account(on: Pick<Stack, 'app'>, username: string): Promise<Account> {
  const password = `pw-${username}-long-enough`;
  const created = await call(on.app, 'POST', '/api/accounts', { username, password });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const session = await call(on.app, 'POST', '/api/session', { username, password });
  return { id: created.body.id, username, session: session.body.token };
}

async function token(on: Pick<Stack, 'app'>, owner: Account, scopes: string[]): Promise<string> {
  const made = await call(on.app, 'POST', '/api/tokens', { name: 'engine', scopes }, bearer(owner.session));
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.token;
}

describe('trips', () => {
  test('two accounts with csa:play trips play a rated game, and their ratings change', async () => {
    const a = await account(stack, 'engine_a');
    const b = await account(stack, 'engine_b');
    const [tripA, tripB] = [await token(stack, a, ['csa:play']), await token(stack, b, ['csa:play'])];
    const game = 'rated-300-10';
    const ca = await CsaClient.open(port);
    const cb = await CsaClient.open(port);
    expect(await ca.login('engine_a', `${game},${tripA}`)).toBe('LOGIN:engine_a OK');
    expect(await cb.login('Engine_B', `${game},${tripB}`)).toBe('LOGIN:Engine_B OK');
    const [sa, sb] = await Promise.all([ca.summary(), cb.summary()]);
    await Promise.all([ca.agree(sa.gameId), cb.agree(sb.gameId)]);
    const [sente, gote] = sa.yourTurn === '+' ? [ca, cb] : [cb, ca];
    await play(sente, gote, '+7776FU');
    await play(gote, sente, '-3334FU');
    // a resignation is a move: sent on one's turn (shogi-server defers one sent early)
    sente.send('%TORYO');
    await Promise.all([sente.readUntil('#LOSE'), gote.readUntil('#WIN')]);

    const view = await call(stack.app, 'GET', `/api/games/${sa.gameId}`);
    expect(view.body).toMatchObject({ rated: true, status: 'ended' });
    const winner = view.body.players.gote.id as string;
    // the projector rates the game a moment later
    let ratings: { category: string; rating: number; games: number }[] = [];
    for (let i = 0; i < 100 && ratings.length === 0; i++) {
      ratings = (await call(stack.app, 'GET', `/api/players/${winner}`)).body.ratings ?? [];
      if (ratings.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ratings).toHaveLength(1);
    expect(ratings[0]?.games).toBe(1);
    expect(ratings[0]?.rating).toBeGreaterThan(1500);
  });

  test('a trip and a guest play a casual game', async () => {
    const c = await account(stack, 'engine_c');
    const trip = await token(stack, c, ['csa:play']);
    const { sente, gote, gameId } = await pairedGame(port, ['engine_c', 'guest_1'], 'casual-300-10', [
      `casual-300-10,${trip}`,
      'casual-300-10',
    ]);
    expect((await call(stack.app, 'GET', `/api/games/${gameId}`)).body.rated).toBe(false);
    sente.close();
    gote.close();
  });

  test.each([
    ['an unknown token', async () => 'not-a-token'],
    ['a token without csa:play', async () => token(stack, await account(stack, 'engine_d'), ['play'])],
    ["another account's token", async () => token(stack, await account(stack, 'engine_e'), ['csa:play'])],
  ])('%s is LOGIN:incorrect', async (_, trip) => {
    const client = await CsaClient.open(port);
    expect(await client.login('engine_a', `wrong-300-10,${await trip()}`)).toBe('LOGIN:incorrect');
    await client.closed;
  });

  test("a guest may not take an account's username", async () => {
    const client = await CsaClient.open(port);
    expect(await client.login('engine_a', 'guest-300-10')).toBe('LOGIN:incorrect');
  });
});

describe('the limit on wrong tokens, per address and per account', () => {
  test('past it guesses are refused, the right trip still logs in from the same address, for the guessed account and another, and its token works over HTTP', async () => {
    const limited = await startStack({
      listen: true,
      worker: false,
      // no cache: every use of a token is braked or looked up
      config: { csaListen: true, csaPort: 0, authCacheMs: 0, authFailures: { max: 40, windowMs: 60_000 } },
    });
    // the accounts and their trips are made on another gateway: this one has never looked
    // them up, and holds them only by that gateway's announcement
    const elsewhere = { app: await buildApp(limited.config, silentLogger()) };
    try {
      const port = limited.csaPort as number;
      const [f, g] = [await account(elsewhere, 'engine_f'), await account(elsewhere, 'engine_g')];
      const [tripF, tripG] = [await token(elsewhere, f, ['csa:play']), await token(elsewhere, g, ['csa:play'])];
      for (let i = 0; i < 45; i++) {
        const client = await CsaClient.open(port);
        expect(await client.login('engine_f', `limit-300-10,wrong${i}`)).toBe('LOGIN:incorrect');
        client.close();
      }
      // the counter is kept in Redis: give its count a moment to come back
      await new Promise((r) => setTimeout(r, 200));
      // the address is past its failures: an unknown bearer token is refused without a lookup
      expect((await call(limited.app, 'GET', '/api/me', undefined, bearer('still-wrong'))).status).toBe(429);
      // a guess at the hammered account is still refused
      const guess = await CsaClient.open(port);
      expect(await guess.login('engine_f', 'limit-300-10,one-more-guess')).toBe('LOGIN:incorrect');
      // the right trips, of the guessed account and of another, log in from the same address
      const right = await CsaClient.open(port);
      expect(await right.login('engine_f', `limit-300-10,${tripF}`)).toBe('LOGIN:engine_f OK');
      const other = await CsaClient.open(port);
      expect(await other.login('engine_g', `limit-300-10,${tripG}`)).toBe('LOGIN:engine_g OK');
      // and the same tokens work over HTTP from that address
      for (const trip of [tripF, tripG])
        expect((await call(limited.app, 'GET', '/api/me', undefined, bearer(trip))).status).toBe(200);
      // a trip of the right account used under another account's name is still wrong
      const swapped = await CsaClient.open(port);
      expect(await swapped.login('engine_g', `limit-300-10,${tripF}`)).toBe('LOGIN:incorrect');
      for (const c of [guess, right, other, swapped]) c.close();
    } finally {
      await elsewhere.app.close();
      await limited.close();
    }
  });
});

describe('the per-address limit on guests', () => {
  test('guest logins are limited per address by RATE_LIMIT_GUESTS, as POST /api/players is', async () => {
    const limited = await startStack({
      listen: true,
      worker: false,
      config: {
        csaListen: true,
        csaPort: 0,
        rateLimits: { ...loadConfig({}).rateLimits, guests: { max: 2, windowMs: 60_000 } },
      },
    });
    try {
      const answers: string[] = [];
      for (const name of ['guest_x', 'guest_y', 'guest_z']) {
        const client = await CsaClient.open(limited.csaPort as number);
        answers.push(await client.login(name, 'guests-300-10'));
        client.close();
      }
      expect(answers).toEqual(['LOGIN:guest_x OK', 'LOGIN:guest_y OK', 'LOGIN:incorrect']);
    } finally {
      await limited.close();
    }
  });
});
