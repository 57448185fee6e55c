/**
 * lishogi's account routes on real PostgreSQL and Redis: the account of a token in lishogi's
 * shape, the upgrade to a bot account (for good, only before any game, withdrawing open seeks)
 * and what a bot account may no longer do, and the ongoing games of `/api/account/playing`.
 */
import { BotRegistry, loadConfig } from '@shogi/gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, NO_LIMIT, type Stack, startStack } from './harness.js';
import { accountWithToken } from './lishogi-event-stream.js';

let stack: Stack;
const houseBots = new BotRegistry();
let houseBotPlayer: string;

beforeAll(async () => {
  const defaults = loadConfig({});
  stack = await startStack({
    worker: false,
    extras: { bots: houseBots },
    config: {
      rateLimits: {
        ...defaults.rateLimits,
        lobby: NO_LIMIT,
        guests: NO_LIMIT,
        botGames: NO_LIMIT,
        botGamesPerIp: NO_LIMIT,
      },
    },
  });
  houseBotPlayer = (await call(stack.app, 'POST', '/api/players', { name: 'house bot' })).body.id;
  houseBots.add({ id: 'house', playerId: houseBotPlayer, name: 'house bot', join: () => {} });
});
afterAll(async () => {
  await stack?.close();
});

const blitz = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 } as const;
const upgrade = (token: string) => call(stack.app, 'POST', '/api/bot/account/upgrade', undefined, bearer(token));
const account = async (token: string) => (await call(stack.app, 'GET', '/api/account', undefined, bearer(token))).body;

describe('GET /api/account', () => {
  test("lishogi's shape: id the lower-cased username, no title for a person, createdAt in ms", async () => {
    const hanako = await accountWithToken(stack.app, 'Hanako', ['board:play']);
    const body = await account(hanako.token);
    expect(body).toEqual({
      id: 'hanako',
      username: 'Hanako',
      perfs: {},
      createdAt: expect.any(Number),
      url: expect.stringMatching(new RegExp(`/players/${hanako.id}$`)),
    });
    expect(Math.abs(body.createdAt - Date.now())).toBeLessThan(60_000);
    // any token will do, as on lishogi: the session's too
    expect((await account(hanako.session)).username).toBe('Hanako');
  });

  test('a guest: its player id and name', async () => {
    const guest = (await call(stack.app, 'POST', '/api/players', { name: 'wanderer' })).body;
    expect(await account(guest.token)).toMatchObject({ id: guest.id, username: 'wanderer' });
  });
});

describe('POST /api/bot/account/upgrade', () => {
  test('makes an account with no game a bot, for good: title BOT; again answers ok', async () => {
    const robo = await accountWithToken(stack.app, 'RoboShogi', ['bot:play']);
    expect(await upgrade(robo.token)).toEqual({ status: 200, body: { ok: true } });
    expect((await account(robo.token)).title).toBe('BOT');
    expect(await upgrade(robo.token)).toEqual({ status: 200, body: { ok: true } });
    // the profile shows it too
    expect((await call(stack.app, 'GET', `/api/players/${robo.id}`)).body.title).toBe('BOT');
  });

  test('needs bot:play: 403 in lishogi’s error shape', async () => {
    const taro = await accountWithToken(stack.app, 'Taro', ['board:play', 'challenge:write']);
    const res = await upgrade(taro.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.stringContaining('bot:play'), code: 'INSUFFICIENT_SCOPE' });
  });

  test('an account that has played a game is refused with 400, and stays a person', async () => {
    const played = await accountWithToken(stack.app, 'Veteran', ['bot:play']);
    const other = (await call(stack.app, 'POST', '/api/players', { name: 'opponent' })).body;
    const made = await call(
      stack.app,
      'POST',
      '/api/games',
      { sente: played.id, gote: other.id },
      bearer(stack.adminToken),
    );
    expect(made.status).toBe(201);
    const res = await upgrade(played.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringContaining('played'), code: 'BOT_UPGRADE_REFUSED' });
    expect(await account(played.token)).not.toHaveProperty('title');
  });

  test('withdraws the open seeks of the account; a bot account seeks and plays house bots no more', async () => {
    const soon = await accountWithToken(stack.app, 'SoonBot', ['bot:play']);
    const seek = await call(
      stack.app,
      'POST',
      '/api/seeks',
      { timeControl: blitz, rated: false },
      bearer(soon.session),
    );
    expect(seek.body.status).toBe('open');
    expect((await upgrade(soon.token)).status).toBe(200);
    expect((await call(stack.app, 'GET', `/api/seeks/${seek.body.id}`)).body.status).toBe('cancelled');
    const again = await call(
      stack.app,
      'POST',
      '/api/seeks',
      { timeControl: blitz, rated: false },
      bearer(soon.session),
    );
    expect(again).toMatchObject({ status: 403, body: { code: 'BOT_ACCOUNT' } });
    for (const timeControl of [blitz, { kind: 'correspondence', daysPerMove: 2 }]) {
      const house = await call(stack.app, 'POST', '/api/bots/house/games', { timeControl }, bearer(soon.session));
      expect(house).toMatchObject({ status: 403, body: { code: 'BOT_ACCOUNT' } });
    }
    // challenges are how a bot plays: it may still send one
    const challenge = await call(
      stack.app,
      'POST',
      '/api/challenges',
      { opponent: 'Hanako', timeControl: blitz, rated: false },
      bearer(soon.session),
    );
    expect(challenge.status).toBe(201);
  });
});

describe('GET /api/account/playing', () => {
  test('the ongoing games, most urgent first, in lishogi’s shape; nb limits them', async () => {
    const kenji = await accountWithToken(stack.app, 'Kenji', ['board:play']);
    const yuki = await accountWithToken(stack.app, 'Yuki', ['board:play']);
    const create = async (sente: string, gote: string, timeControl: object) =>
      (await call(stack.app, 'POST', '/api/games', { sente, gote, timeControl }, bearer(stack.adminToken))).body;
    // kenji's turn in the first (sente), yuki's in the second (kenji is gote)
    const first = await create(kenji.id, yuki.id, blitz);
    const second = await create(yuki.id, kenji.id, { kind: 'correspondence', daysPerMove: 3 });
    const { status, body } = await call(stack.app, 'GET', '/api/account/playing', undefined, bearer(kenji.token));
    expect(status).toBe(200);
    expect(body.nowPlaying.map((g: { gameId: string }) => g.gameId)).toEqual([first.id, second.id]);
    expect(body.nowPlaying[0]).toEqual({
      id: first.id,
      gameId: first.id,
      fullId: first.id,
      color: 'sente',
      sfen: first.sfen,
      hasMoved: false,
      isMyTurn: true,
      lastMove: '',
      opponent: { id: 'yuki', username: 'Yuki', rating: 1500 },
      perf: 'blitz',
      rated: false,
      secondsLeft: 310,
      speed: 'blitz',
      variant: { key: 'standard', name: 'Standard' },
      compat: { bot: true, board: true },
    });
    expect(body.nowPlaying[1]).toMatchObject({ color: 'gote', isMyTurn: false, speed: 'correspondence' });
    const one = await call(stack.app, 'GET', '/api/account/playing?nb=1', undefined, bearer(kenji.token));
    expect(one.body.nowPlaying).toHaveLength(1);
    const bad = await call(stack.app, 'GET', '/api/account/playing?nb=0', undefined, bearer(kenji.token));
    expect(bad).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', error: expect.any(String) } });
  });
});
