/**
 * lishogi's BOT title on this server's own views: a bot account's entry in a challenge, a game
 * view, the live list, a spectator's snapshot and the NDJSON stream carries `title: 'BOT'`; a
 * person's entries carry no `title` key at all, so exact-shape clients see what they saw before.
 */
import type { GameView } from '@shogi/protocol';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, newGame, type Stack, startStack } from './harness.js';
import { post } from './lishogi-client.js';
import { accountWithToken, type TestAccount } from './lishogi-event-stream.js';
import { NdjsonReader } from './ndjson-client.js';

let stack: Stack;
let bot: TestAccount;
let taro: TestAccount;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  bot = await accountWithToken(stack.app, 'TitleBot', ['bot:play']);
  expect(await post(stack, '/api/bot/account/upgrade', bot.token)).toEqual({ status: 200, body: { ok: true } });
  taro = await accountWithToken(stack.app, 'TitleTaro', ['play']);
});
afterAll(async () => {
  await stack?.close();
});

const person = (p: { id: string; name: string }) => ({ id: p.id, name: p.name });

describe('the BOT title', () => {
  test("a person's challenge to a bot, its game view, live entry and streamed snapshot name the bot 'BOT'", async () => {
    const made = await call(
      stack.app,
      'POST',
      '/api/challenges',
      { opponent: 'TitleBot', timeControl: { kind: 'fischer', mainSeconds: 300, incrementSeconds: 3 }, rated: false },
      bearer(taro.session),
    );
    expect(made.status).toBe(201);
    expect(made.body.challenger).toEqual({ id: taro.id, name: 'TitleTaro' });
    expect(made.body.opponent).toEqual({ id: bot.id, name: 'TitleBot', title: 'BOT' });
    const listed = await call(stack.app, 'GET', '/api/challenges', undefined, bearer(taro.session));
    expect(listed.body.outgoing[0].opponent).toEqual({ id: bot.id, name: 'TitleBot', title: 'BOT' });

    expect(await post(stack, `/api/challenge/${made.body.id}/accept`, bot.token)).toEqual({
      status: 200,
      body: { ok: true },
    });
    const { gameId } = (
      await call(stack.app, 'GET', `/api/challenges/${made.body.id}`, undefined, bearer(taro.session))
    ).body;
    expect(gameId).toEqual(expect.any(String));

    const view = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
    const [botSide, taroSide] =
      view.players.sente.id === bot.id ? (['sente', 'gote'] as const) : (['gote', 'sente'] as const);
    expect(view.players[botSide]).toEqual({ id: bot.id, name: 'TitleBot', title: 'BOT' });
    expect(view.players[taroSide]).toEqual({ id: taro.id, name: 'TitleTaro' });

    const live = (await call(stack.app, 'GET', '/api/live')).body.games.find((g: { id: string }) => g.id === gameId);
    expect(live.players[botSide]).toEqual({ id: bot.id, name: 'TitleBot', title: 'BOT' });
    expect(live.players[taroSide]).toEqual({ id: taro.id, name: 'TitleTaro' });

    for (const query of ['', '?delay=1']) {
      const opened = await NdjsonReader.open(`${stack.baseUrl}/api/games/${gameId}/stream${query}`, taro.session);
      if (!('reader' in opened)) throw new Error(`stream refused: ${opened.status}`);
      const stream = opened.reader;
      const snapshot = await stream.next();
      const game = snapshot?.game as GameView | undefined;
      expect(game?.players[botSide]).toEqual({ id: bot.id, name: 'TitleBot', title: 'BOT' });
      expect(game?.players[taroSide]).toEqual({ id: taro.id, name: 'TitleTaro' });
      stream.close();
    }
    expect((await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(taro.session))).status).toBe(202);
  });

  test('a game between two people shows their players without a title key', async () => {
    const { game, players } = await newGame(stack.app);
    expect(game.players).toEqual({ sente: person(players.sente), gote: person(players.gote) });
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    expect(view.players).toEqual({ sente: person(players.sente), gote: person(players.gote) });
    const live = (await call(stack.app, 'GET', '/api/live')).body.games.find((g: { id: string }) => g.id === game.id);
    expect(live.players).toEqual({ sente: person(players.sente), gote: person(players.gote) });
  });
});
