/**
 * A CSA game seen from the rest of the server: a spectator's watch socket and a player's own
 * WebSocket follow the moves the CSA players are echoed, the engines' comments
 * (`+7776FU,'* 30 -3334FU`) are kept with the moves and shown to spectators and in the
 * record, and the game's log, view and record have the shape of a game played over HTTP.
 */
import type { ServerMessage } from '@shogi/protocol';
import { analysisDb, getAnalysis, PLAYER_COMMENTS_SETTING, requestAnalysis } from '@shogi/store';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CsaClient, play } from './csa-client.js';
import { bearer, type CsaStack, call, newGame, playMove, startCsaStack } from './harness.js';
import { Watcher } from './spectate-client.js';

let stack: CsaStack;
let port: number;

beforeAll(async () => {
  stack = await startCsaStack();
  port = stack.csaPort;
});

afterAll(async () => {
  await stack?.close();
});

async function account(username: string): Promise<{ session: string; trip: string }> {
  const password = `pw-${username}-long-enough`;
  expect((await call(stack.app, 'POST', '/api/accounts', { username, password })).status).toBe(201);
  const session = (await call(stack.app, 'POST', '/api/session', { username, password })).body.token as string;
  const made = await call(stack.app, 'POST', '/api/tokens', { name: 'engine', scopes: ['csa:play'] }, bearer(session));
  return { session, trip: made.body.token };
}

const MOVES = ['7g7f', '3c3d', '2g2f'];

describe('a CSA game seen over WebSocket and HTTP', () => {
  let gameId = '';

  test('spectators and a player socket see the moves the CSA players are echoed, with the comments', async () => {
    const a = await account('watch_a');
    const b = await account('watch_b');
    const ca = await CsaClient.open(port);
    const cb = await CsaClient.open(port);
    await ca.login('watch_a', `watch-300-10,${a.trip}`);
    await cb.login('watch_b', `watch-300-10,${b.trip}`);
    const [sa, sb] = await Promise.all([ca.summary(), cb.summary()]);
    gameId = sa.gameId;
    await Promise.all([ca.agree(sa.gameId), cb.agree(sb.gameId)]);
    const [sente, gote] = sa.yourTurn === '+' ? [ca, cb] : [cb, ca];
    const aPlays = sa.yourTurn === '+' ? 'sente' : 'gote';

    // 1. a spectator, and player a on its own WebSocket (with its session token)
    const watcher = await Watcher.open(stack.baseUrl, gameId);
    const socket = await stack.api.playerSocket(gameId, a.session);
    expect(await socket.waitFor((m: ServerMessage) => m.type === 'hello')).toMatchObject({ side: aPlays });

    // 2. moves with an engine's comment, and one without
    const echoes = [
      await play(sente, gote, "+7776FU,'* 30 -3334FU +2726FU"),
      await play(gote, sente, "-3334FU,'* -25 +2726FU"),
      await play(sente, gote, '+2726FU'),
    ];
    gote.send('%TORYO');
    await Promise.all([sente.readUntil('#WIN'), gote.readUntil('#LOSE')]);

    // 3. the same moves, in order, to the spectator and the player socket
    await watcher.waitFor(() => watcher.events.some((e) => e.type === 'GameEnded'));
    expect(watcher.moves).toEqual(MOVES);
    expect(echoes.map((e) => e.split(',')[0])).toEqual(['+7776FU', '-3334FU', '+2726FU']);
    await socket.waitFor((m: ServerMessage) => m.type === 'events' && m.events.some((e) => e.type === 'GameEnded'));
    const socketMoves = socket.received
      .flatMap((m: ServerMessage) => (m.type === 'events' ? m.events : []))
      .filter((e) => e.type === 'MoveAccepted')
      .map((e) => e.payload.usi);
    expect(socketMoves).toEqual(MOVES);

    // 4. the comments travel with the submissions, to spectators
    const comments = watcher.events.filter((e) => e.type === 'MoveSubmitted').map((e) => e.payload.comment);
    expect(comments).toEqual(['* 30 -3334FU +2726FU', '* -25 +2726FU', undefined]);
    await watcher.close();
    await socket.close();
  });

  test('the record keeps the comments after their moves', async () => {
    const record = await stack.app.inject({ method: 'GET', url: `/api/games/${gameId}/record.csa` });
    // a move's seconds are whole seconds used: may be more than 0 on a loaded machine
    expect(record.body, record.body).toMatch(
      /\+7776FU\nT\d+\n'\* 30 -3334FU \+2726FU\n-3334FU\nT\d+\n'\* -25 \+2726FU\n\+2726FU\n/,
    );
    expect(record.body).toContain('%TORYO');
  });

  test("the engines' comments are the game's players' analysis, kept once it ended, never shadowing the server's", async () => {
    const players = {
      status: 'done',
      engine: { name: "the players' engines", source: 'players' },
      plies: [
        // sente's engine: +30 for sente, expecting 3c3d then 2g2f
        { ply: 1, score: { cp: 30 }, best: '3c3d', pv: ['3c3d', '2g2f'], judgment: null, by: 'sente' },
        // gote's engine writes sente's side too: -25 is gote ahead
        { ply: 2, score: { cp: -25 }, best: '2g2f', pv: ['2g2f'], judgment: null, by: 'gote' },
      ],
    };
    // kept by the CSA front end as the game ended
    const db = analysisDb(stack.db);
    await expect
      .poll(async () => (await getAnalysis(db, gameId, PLAYER_COMMENTS_SETTING))?.status ?? null, { timeout: 5_000 })
      .toBe('done');
    const read = (query = '') => stack.app.inject({ method: 'GET', url: `/api/games/${gameId}/analysis${query}` });
    expect((await read()).json()).toEqual(players);
    expect((await read('?source=players')).json()).toEqual(players);
    expect((await read('?source=server')).statusCode).toBe(404);
    expect((await read('?source=engine')).statusCode).toBe(400);

    // a server analysis requested later is what the route answers first; the players' stays a query away
    const engine = { name: 'Fairy-Stockfish', depth: 12 };
    await requestAnalysis(db, {
      gameId,
      setting: 'Fairy-Stockfish|depth=12',
      engine,
      firstSide: 'sente',
      now: new Date(),
    });
    expect((await read()).json()).toMatchObject({ status: 'queued', engine, plies: [] });
    expect((await read('?source=server')).json()).toMatchObject({ status: 'queued', engine });
    expect((await read('?source=players')).json()).toEqual(players);
  });

  test('the log, the view and the record have the shape of an HTTP game with the same moves', async () => {
    const http = await newGame(stack.app, {
      timeControl: { kind: 'byoyomi', mainSeconds: 300, byoyomiSeconds: 10, periods: 1 },
    });
    const tokens = [http.players.sente.token, http.players.gote.token];
    for (const [ply, usi] of MOVES.entries())
      await playMove(stack.app, http.game.id, tokens[ply % 2] as string, usi, ply);
    await call(stack.app, 'POST', `/api/games/${http.game.id}/resign`, {}, bearer(http.players.gote.token));

    const types = async (id: string) =>
      (await call(stack.app, 'GET', `/api/games/${id}/events?after=0`)).body.events.map(
        (e: { type: string }) => e.type,
      );
    expect(await types(gameId)).toEqual(await types(http.game.id));

    const [csaView, httpView] = [
      (await call(stack.app, 'GET', `/api/games/${gameId}`)).body,
      (await call(stack.app, 'GET', `/api/games/${http.game.id}`)).body,
    ];
    expect(Object.keys(csaView).sort()).toEqual(Object.keys(httpView).sort());
    expect(csaView).toMatchObject({ moves: MOVES, status: 'ended', result: httpView.result, sfen: httpView.sfen });

    const moveLines = async (id: string) =>
      (await stack.app.inject({ method: 'GET', url: `/api/games/${id}/record.csa` })).body
        .split('\n')
        .filter((l: string) => /^[+-]\d{4}|^%/.test(l));
    expect(await moveLines(gameId)).toEqual(await moveLines(http.game.id));
  });
});
