/**
 * A bot account playing as a lishogi bot client plays, on the real stack: it reads its event
 * stream, accepts the challenge it is sent, opens the game's Bot API stream on gameStart and
 * answers each state with a move POST, until the game ends and gameFinish comes. Against a
 * person over the Board API (a whole game to checkmate), and against a person on this
 * server's own routes (the web client's), who resigns.
 */
import { loadConfig } from '@shogi/gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MATE_GAME } from './fixtures.js';
import { bearer, call, NO_LIMIT, playMove, type Stack, startStack } from './harness.js';
import { openStream, post } from './lishogi-client.js';
import { accountWithToken, LineLog, type TestAccount } from './lishogi-event-stream.js';

let stack: Stack;
let bot: TestAccount;
let botEvents: LineLog;

beforeAll(async () => {
  const defaults = loadConfig({}).rateLimits;
  stack = await startStack({ listen: true, config: { rateLimits: { ...defaults, lobby: NO_LIMIT } } });
  bot = await accountWithToken(stack.app, 'RoboShogi', ['bot:play']);
  expect(await post(stack, '/api/bot/account/upgrade', bot.token)).toEqual({ status: 200, body: { ok: true } });
  const opened = await LineLog.open(`${stack.baseUrl}/api/stream/event`, bot.token);
  botEvents = opened.reader;
});
afterAll(async () => {
  botEvents?.close();
  await stack?.close();
});

/** What Lishogi-Bot does with a challenge event: accept it, then wait for its game's gameStart. */
async function botAccepts(challengeId: string): Promise<string> {
  await botEvents.waitFor((l) => l.type === 'challenge' && l.challenge.id === challengeId);
  expect(await post(stack, `/api/challenge/${challengeId}/accept`, bot.token)).toEqual({
    status: 200,
    body: { ok: true },
  });
  const start = await botEvents.waitFor(
    (l) => l.type === 'gameStart' && !botEvents.lines.some((f) => f.type === 'gameFinish' && f.game.id === l.game.id),
  );
  return start.game.id as string;
}

describe('a bot account over the Bot API', () => {
  test('against a person over the Board API: from a challenge to checkmate', async () => {
    const hanako = await accountWithToken(stack.app, 'Hanako', ['board:play', 'challenge:read', 'challenge:write']);
    const hanakoEvents = (await LineLog.open(`${stack.baseUrl}/api/stream/event`, hanako.token)).reader;
    // 1. Hanako challenges the bot over lishogi's route; she plays gote, so the bot mates
    const made = await post(
      stack,
      '/api/challenge/RoboShogi',
      hanako.token,
      'clock.limit=600&clock.byoyomi=30&color=gote',
    );
    expect(made.status).toBe(200);
    // 2. the bot accepts from its event stream; both hear of the game
    const gameId = await botAccepts(made.body.id);
    await hanakoEvents.waitFor((l) => l.type === 'gameStart' && l.game.id === gameId);
    // 3. the bot's stream opens with gameFull, where it finds its side by its username
    const botStream = await openStream(stack, gameId, bot.token, 'bot');
    const personStream = await openStream(stack, gameId, hanako.token, 'board');
    const full = await botStream.next();
    expect(full).toMatchObject({
      type: 'gameFull',
      sente: { id: 'roboshogi', name: 'RoboShogi', title: 'BOT' },
      gote: { id: 'hanako', name: 'Hanako', title: null },
    });
    expect((await personStream.next())?.type).toBe('gameFull');
    // 4. moves in turn, each player on its own API, each answered once played
    for (const [ply, usi] of MATE_GAME.entries()) {
      const [token, api] = ply % 2 === 0 ? [bot.token, 'bot'] : [hanako.token, 'board'];
      expect(await post(stack, `/api/${api}/game/${gameId}/move/${usi}`, token)).toEqual({
        status: 200,
        body: { ok: true },
      });
    }
    // 5. the last state is the mate, won by the bot; both streams end; gameFinish for both
    const [botLast] = (await botStream.rest()).slice(-1);
    expect(botLast).toMatchObject({ type: 'gameState', status: 'mate', winner: 'sente' });
    expect((await personStream.rest()).at(-1)).toMatchObject({ status: 'mate', winner: 'sente' });
    await botEvents.waitFor((l) => l.type === 'gameFinish' && l.game.id === gameId);
    await hanakoEvents.waitFor((l) => l.type === 'gameFinish' && l.game.id === gameId);
    hanakoEvents.close();
  });

  test('against a person in the web client: her challenge on its own route, her moves and resignation there', async () => {
    const taro = await accountWithToken(stack.app, 'Taro', ['play']);
    const challenge = await call(
      stack.app,
      'POST',
      '/api/challenges',
      {
        opponent: 'roboshogi',
        timeControl: { kind: 'fischer', mainSeconds: 300, incrementSeconds: 3 },
        rated: true,
        color: 'sente',
      },
      bearer(taro.session),
    );
    expect(challenge.status).toBe(201);
    const gameId = await botAccepts(challenge.body.id);
    const botStream = await openStream(stack, gameId, bot.token, 'bot');
    expect(await botStream.next()).toMatchObject({ type: 'gameFull', rated: true, gote: { title: 'BOT' } });
    await playMove(stack.app, gameId, taro.session, '7g7f', 0);
    expect(await botStream.nextOf('gameState')).toMatchObject({ moves: '7g7f', status: 'started' });
    expect(await post(stack, `/api/bot/game/${gameId}/move/3c3d`, bot.token)).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(await botStream.nextOf('gameState')).toMatchObject({ moves: '7g7f 3c3d' });
    expect((await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(taro.session))).status).toBe(202);
    expect((await botStream.rest()).at(-1)).toMatchObject({ status: 'resign', winner: 'gote' });
    await botEvents.waitFor((l) => l.type === 'gameFinish' && l.game.id === gameId);
  });

  test('the bot plays several real-time games at once, as on lishogi; each person is held to one', async () => {
    const [ai, ken] = await Promise.all([
      accountWithToken(stack.app, 'Aiko', ['board:play']),
      accountWithToken(stack.app, 'Ken', ['board:play']),
    ]);
    const games: string[] = [];
    for (const who of [ai, ken]) {
      const made = await post(stack, '/api/challenge/RoboShogi', who.token, 'clock.limit=300&clock.byoyomi=10');
      expect(made.status).toBe(200);
      expect(await post(stack, `/api/challenge/${made.body.id}/accept`, bot.token)).toEqual({
        status: 200,
        body: { ok: true },
      });
      const start = await botEvents.waitFor(
        (l) => l.type === 'gameStart' && l.game.opponent?.username === who.username && !games.includes(l.game.id),
      );
      games.push(start.game.id as string);
    }
    expect(new Set(games).size).toBe(2);
    for (const gameId of games)
      expect((await call(stack.app, 'GET', `/api/games/${gameId}`)).body.status).toBe('ongoing');
    // the bot challenges a person who is playing it already: the person's rule holds
    const again = await post(stack, '/api/challenge/Aiko', bot.token, 'clock.limit=300&clock.byoyomi=10');
    expect(again.status).toBe(200);
    const refused = await post(stack, `/api/challenge/${again.body.id}/accept`, ai.token);
    expect(refused).toMatchObject({ status: 404, body: { error: expect.stringMatching(/playing|game/i) } });
    for (const [i, who] of [ai, ken].entries())
      expect(await post(stack, `/api/board/game/${games[i]}/resign`, who.token)).toEqual({
        status: 200,
        body: { ok: true },
      });
  });

  test('the bot may not play over the Board API, nor a person over the Bot API', async () => {
    const yuki = await accountWithToken(stack.app, 'Yuki', ['board:play', 'bot:play']);
    const gameId = (
      await call(stack.app, 'POST', '/api/games', { sente: yuki.id, gote: bot.id }, bearer(stack.adminToken))
    ).body.id as string;
    // a board:play token of the bot's own is the wrong API for it, as on lishogi
    const board = await call(
      stack.app,
      'POST',
      '/api/tokens',
      { name: 'board', scopes: ['board:play'] },
      bearer(bot.session),
    );
    const asBoard = await post(stack, `/api/board/game/${gameId}/move/7g7f`, board.body.token);
    expect(asBoard).toMatchObject({ status: 400, body: { code: 'NOT_FOR_BOT_ACCOUNTS' } });
    const asBot = await post(stack, `/api/bot/game/${gameId}/move/7g7f`, yuki.token);
    expect(asBot).toMatchObject({ status: 400, body: { code: 'BOT_ACCOUNT_REQUIRED' } });
  });
});
