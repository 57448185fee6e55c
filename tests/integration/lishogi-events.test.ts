/**
 * lishogi's event stream over real HTTP, PostgreSQL, Redis and a worker, read as a bot client
 * reads it: challenges from this server's own routes and from lishogi's reach it, and a
 * challenge from lishogi's route reaches the lobby socket (one lobby); declines and
 * cancellations; gameStart and gameFinish for a game however it starts and ends (a challenge
 * accepted, an operator's game; a resignation at the gateway, a checkmate judged by the worker);
 * the games running when it opens; keep-alive lines; a stream the client drops releases its
 * subscriptions.
 */

import { gameChannel } from '@shogi/pipeline';
import type { LobbyMessage } from '@shogi/protocol';
import { closeClient } from '@shogi/redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { Conditions } from './conditions.js';
import { MATE_GAME } from './fixtures.js';
import { bearer, call, channelListeners, playMove, type Stack, startStack, testRedis } from './harness.js';
import { accountWithToken, LineLog, type TestAccount } from './lishogi-event-stream.js';

let stack: Stack;
/** a bot account, as a lishogi bot client holds it: a token with bot:play */
let robo: TestAccount;
/** a person, on this server's own routes (session) and lishogi's (board:play, challenge:read) */
let hanako: TestAccount;
const open: LineLog[] = [];

beforeAll(async () => {
  // a request timeout shorter than the keep-alive test: a stream outlives it (it bounds receiving a request)
  stack = await startStack({ listen: true, config: { requestTimeoutMs: 2_000 } });
  robo = await accountWithToken(stack.app, 'RoboShogi', ['bot:play']);
  expect((await call(stack.app, 'POST', '/api/bot/account/upgrade', undefined, bearer(robo.token))).status).toBe(200);
  hanako = await accountWithToken(stack.app, 'Hanako', ['board:play', 'challenge:read', 'challenge:write']);
});
afterAll(async () => {
  for (const reader of open) reader.close();
  await stack?.close();
});

const blitz = { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 } as const;

async function events(token: string): Promise<LineLog> {
  const opened = await LineLog.open(`${stack.baseUrl}/api/stream/event`, token);
  expect({ status: opened.status, type: opened.contentType }).toEqual({ status: 200, type: 'application/x-ndjson' });
  open.push(opened.reader);
  return opened.reader;
}

/** A lishogi POST as its clients send them: form-encoded, or with no body at all. */
async function lishogiPost(path: string, token: string, form?: Record<string, string>) {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      ...bearer(token),
      ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
  });
  return { status: res.status, body: await res.json() };
}

/** The player's lobby WebSocket, collecting what it is sent. */
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
  static async open(token: string): Promise<LobbySocket> {
    const ws = new WebSocket(`${stack.baseUrl.replace(/^http/, 'ws')}/api/lobby/ws`, { headers: bearer(token) });
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
}

describe('challenges: one lobby', () => {
  test('one made on this server’s own route reaches the bot’s stream in lishogi’s shape; a decline reaches the challenger’s', async () => {
    const bot = await events(robo.token);
    const person = await events(hanako.token);
    // 1. Hanako challenges the bot from the web client's route
    const sent = await call(
      stack.app,
      'POST',
      '/api/challenges',
      { opponent: 'roboshogi', timeControl: blitz, rated: false, color: 'gote' },
      bearer(hanako.session),
    );
    expect(sent.status).toBe(201);
    // 2. the bot reads what Lishogi-Bot's model.Challenge reads
    const line = await bot.waitFor((l) => l.type === 'challenge' && l.challenge.id === sent.body.id);
    expect(line.challenge).toMatchObject({
      id: sent.body.id,
      url: expect.stringContaining(sent.body.id),
      status: 'created',
      rated: false,
      variant: { key: 'standard' },
      speed: 'blitz',
      perf: { name: 'Blitz' },
      timeControl: { type: 'clock', limit: 300, increment: 0, byoyomi: 10, periods: 1 },
      color: 'gote',
      direction: 'in',
      challenger: { id: 'hanako', name: 'Hanako', title: null, rating: 1500, provisional: true },
      destUser: { id: 'roboshogi', name: 'RoboShogi', title: 'BOT' },
    });
    // 3. the bot declines over lishogi's route, with a reason: Hanako's stream hears it
    expect(await lishogiPost(`/api/challenge/${sent.body.id}/decline`, robo.token, { reason: 'later' })).toEqual({
      status: 200,
      body: { ok: true },
    });
    const declined = await person.waitFor((l) => l.type === 'challengeDeclined');
    expect(declined.challenge).toMatchObject({ id: sent.body.id, status: 'declined', direction: 'out' });
    // the bot's own stream never shows it the challenges it did not receive
    expect(bot.lines.filter((l) => l.type === 'challengeDeclined')).toEqual([]);
  });

  test('one made on lishogi’s route reaches the challenged person’s lobby socket; a cancellation reaches both of hers', async () => {
    const socket = await LobbySocket.open(hanako.session);
    const person = await events(hanako.token);
    const made = await lishogiPost('/api/challenge/Hanako', robo.token, {
      'clock.limit': '600',
      'clock.byoyomi': '30',
      rated: 'false',
      color: 'sente',
    });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      status: 'created',
      direction: 'out',
      speed: 'rapid',
      challenger: { name: 'RoboShogi', title: 'BOT' },
      destUser: { name: 'Hanako' },
      timeControl: { type: 'clock', limit: 600, byoyomi: 30, show: '10|30' },
    });
    const heard = await socket.waitFor((m) => m.type === 'challenge' && m.challenge.id === made.body.id);
    expect(heard).toMatchObject({ challenge: { challenger: { id: robo.id }, color: 'sente' } });
    await person.waitFor((l) => l.type === 'challenge' && l.challenge.id === made.body.id);
    expect(await lishogiPost(`/api/challenge/${made.body.id}/cancel`, robo.token)).toEqual({
      status: 200,
      body: { ok: true },
    });
    await socket.waitFor((m) => m.type === 'cancelled' && m.challengeId === made.body.id);
    const canceled = await person.waitFor((l) => l.type === 'challengeCanceled');
    expect(canceled.challenge).toMatchObject({ id: made.body.id, status: 'canceled', direction: 'in' });
    socket.ws.close();
  });
});

describe('games', () => {
  test('a challenge accepted over lishogi’s route: gameStart for the bot; a resignation at the gateway: gameFinish', async () => {
    const bot = await events(robo.token);
    const sent = await call(
      stack.app,
      'POST',
      '/api/challenges',
      { opponent: robo.id, timeControl: blitz, rated: false, color: 'sente' },
      bearer(hanako.session),
    );
    // Lishogi-Bot accepts with a bodiless POST
    expect(await lishogiPost(`/api/challenge/${sent.body.id}/accept`, robo.token)).toEqual({
      status: 200,
      body: { ok: true },
    });
    const gameId = (await call(stack.app, 'GET', `/api/challenges/${sent.body.id}`, undefined, bearer(hanako.session)))
      .body.gameId as string;
    const start = await bot.waitFor((l) => l.type === 'gameStart' && l.game.gameId === gameId);
    expect(start.game).toMatchObject({
      id: gameId,
      color: 'gote',
      isMyTurn: false,
      hasMoved: false,
      opponent: { id: 'hanako', username: 'Hanako', rating: 1500 },
      speed: 'blitz',
      rated: false,
      variant: { key: 'standard' },
    });
    // the game is in the bot's ongoing games too
    const playing = await call(stack.app, 'GET', '/api/account/playing', undefined, bearer(robo.token));
    expect(playing.body.nowPlaying.map((g: { gameId: string }) => g.gameId)).toContain(gameId);
    expect((await call(stack.app, 'POST', `/api/games/${gameId}/resign`, {}, bearer(hanako.session))).status).toBe(202);
    const finish = await bot.waitFor((l) => l.type === 'gameFinish' && l.game.gameId === gameId);
    expect(finish.game).toMatchObject({ id: gameId, color: 'gote', isMyTurn: false });
  });

  test('an operator’s game played to checkmate: gameStart, then gameFinish once the worker judges the mate', async () => {
    const taro = await accountWithToken(stack.app, 'Taro', ['board:play']);
    const kenji = await accountWithToken(stack.app, 'Kenji', ['board:play']);
    const stream = await events(taro.token);
    const game = (
      await call(stack.app, 'POST', '/api/games', { sente: taro.id, gote: kenji.id }, bearer(stack.adminToken))
    ).body;
    const start = await stream.waitFor((l) => l.type === 'gameStart' && l.game.gameId === game.id);
    expect(start.game).toMatchObject({ color: 'sente', isMyTurn: true, speed: 'correspondence', secondsLeft: null });
    for (const [ply, usi] of MATE_GAME.entries())
      await playMove(stack.app, game.id, ply % 2 === 0 ? taro.session : kenji.session, usi, ply);
    const finish = await stream.waitFor((l) => l.type === 'gameFinish' && l.game.gameId === game.id, 20_000);
    expect(finish.game).toMatchObject({ lastMove: MATE_GAME.at(-1), isMyTurn: false });
    expect(stream.lines.filter((l) => l.game?.gameId === game.id).map((l) => l.type)).toEqual([
      'gameStart',
      'gameFinish',
    ]);
  });

  test('a stream opened later starts with every running game and every pending challenge', async () => {
    const late = await accountWithToken(stack.app, 'Latecomer', ['board:play']);
    const game = (
      await call(stack.app, 'POST', '/api/games', { sente: hanako.id, gote: late.id }, bearer(stack.adminToken))
    ).body;
    const challenge = (
      await call(
        stack.app,
        'POST',
        '/api/challenges',
        { opponent: late.username, timeControl: { kind: 'correspondence', daysPerMove: 2 }, rated: false },
        bearer(hanako.session),
      )
    ).body;
    const stream = await events(late.token);
    await stream.until(() => stream.lines.length >= 2, 'a gameStart and a challenge');
    expect(stream.lines.slice(0, 2)).toMatchObject([
      { type: 'gameStart', game: { gameId: game.id, color: 'gote' } },
      { type: 'challenge', challenge: { id: challenge.id, timeControl: { type: 'correspondence', daysPerTurn: 2 } } },
    ]);
  });
});

describe('the stream itself', () => {
  test('sends a keep-alive line within 6 s, as lishogi does, and outlives the request timeout', async () => {
    const quiet = await accountWithToken(stack.app, 'Quiet', ['board:play']);
    const stream = await events(quiet.token);
    await stream.until(() => stream.keepAlives > 0, 'a keep-alive line', 6_500);
    expect(stream.lines).toEqual([]);
    expect(stream.ended).toBe(false);
  });

  test('a stream the client drops releases its subscriptions: the player’s channel and its games’', async () => {
    const leaving = await accountWithToken(stack.app, 'Leaving', ['board:play']);
    const stranger = (await call(stack.app, 'POST', '/api/players', { name: 'stranger' })).body;
    const game = (
      await call(stack.app, 'POST', '/api/games', { sente: leaving.id, gote: stranger.id }, bearer(stack.adminToken))
    ).body;
    // what Redis counts: this gateway's subscriptions to the two channels the stream listens on
    const redis = testRedis('lishogi-events');
    const channels = [
      `${stack.config.channelPrefix}player:${leaving.id}`,
      gameChannel(game.id, stack.config.channelPrefix, stack.config.validateQueues),
    ];
    const subscribers = async () => {
      return channelListeners(redis, ...channels);
    };
    try {
      expect(await subscribers()).toEqual([0, 0]);
      const stream = await events(leaving.token);
      await stream.waitFor((l) => l.type === 'gameStart' && l.game.gameId === game.id);
      expect(await subscribers()).toEqual([1, 1]);
      stream.close();
      const deadline = Date.now() + 5_000;
      while ((await subscribers()).some((n) => n > 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await subscribers()).toEqual([0, 0]);
    } finally {
      await closeClient(redis);
    }
  });

  test('without a token: 401, and a token without the scope: 403, in lishogi’s error shape', async () => {
    const none = await fetch(`${stack.baseUrl}/api/stream/event`);
    expect({ status: none.status, body: await none.json() }).toEqual({
      status: 401,
      body: { error: expect.any(String), code: 'UNAUTHORIZED' },
    });
    const opened = await LineLog.open(`${stack.baseUrl}/api/stream/event`, hanako.session);
    expect({ status: opened.status, body: opened.body }).toEqual({
      status: 403,
      body: { error: expect.stringContaining('challenge:read'), code: 'INSUFFICIENT_SCOPE' },
    });
  });
});
