/**
 * The spectator WebSocket on one gateway: snapshot first, then every event in seq order;
 * a reconnect with `since` gets exactly the missed events; read-only; unknown games refused.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { MATE_GAME } from './fixtures.js';
import { call, newGame, playMove, type Stack, startStack } from './harness.js';
import { range, Watcher } from './spectate-client.js';

let stack: Stack;
beforeAll(async () => {
  // a short ping period so the heartbeat test runs fast (ws clients answer pings on their own)
  stack = await startStack({ listen: true, config: { watchHeartbeatMs: 300 } });
});
afterAll(async () => {
  await stack?.close();
});

test('a spectator gets the snapshot, then every event in order; a second one joins mid-game', async () => {
  const { game, players } = await newGame(stack.app);
  // 1. a spectator before the first move: the snapshot at seq 1 (GameCreated)
  const early = await Watcher.open(stack.baseUrl, game.id);
  await early.waitFor(() => early.received.length > 0);
  const first = early.received[0];
  expect(first?.type).toBe('snapshot');
  if (first?.type !== 'snapshot') throw new Error('unreachable');
  expect(first.game).toMatchObject({ id: game.id, seq: 1, ply: 0, moves: [], status: 'ongoing', spectators: 1 });
  expect(first.game.players.sente.name).toBe('alice');

  // 2. half the game, then a second spectator: its snapshot has the moves so far
  const half = 10;
  let lastSeq = 1;
  for (const [ply, usi] of MATE_GAME.slice(0, half).entries()) {
    const token = ply % 2 === 0 ? players.sente.token : players.gote.token;
    lastSeq = (await playMove(stack.app, game.id, token, usi, ply)).verdict.seq;
  }
  await early.waitForSeq(lastSeq);
  const late = await Watcher.open(stack.baseUrl, game.id);
  await late.waitFor(() => late.received.length > 0);
  const snap = late.received[0];
  if (snap?.type !== 'snapshot') throw new Error(`expected a snapshot, got ${JSON.stringify(snap)}`);
  expect(snap.game.moves).toEqual(MATE_GAME.slice(0, half));
  expect(snap.game.seq).toBe(lastSeq);
  expect(snap.game.sfen).toBe((await call(stack.app, 'GET', `/api/games/${game.id}`)).body.sfen);

  // 3. the rest of the game: both see everything after their snapshot, in order, once
  for (const [i, usi] of MATE_GAME.slice(half).entries()) {
    const ply = half + i;
    const token = ply % 2 === 0 ? players.sente.token : players.gote.token;
    lastSeq = (await playMove(stack.app, game.id, token, usi, ply)).verdict.seq;
  }
  const end = await call(stack.app, 'GET', `/api/games/${game.id}`);
  expect(end.body.status).toBe('ended');
  await early.waitForSeq(end.body.lastSeq);
  await late.waitForSeq(end.body.lastSeq);
  expect(early.seqs).toEqual(range(2, end.body.lastSeq));
  expect(late.seqs).toEqual(range(snap.game.seq + 1, end.body.lastSeq));
  expect(early.moves).toEqual([...MATE_GAME]);
  expect([...snap.game.moves, ...late.moves]).toEqual([...MATE_GAME]);
  expect(early.events.at(-1)?.type).toBe('GameEnded');
  // the count went up to 2 on this gateway
  await early.waitFor(() => early.received.some((m) => m.type === 'spectators' && m.count === 2));
  await Promise.all([early.close(), late.close()]);
});

test('a reconnect with since gets exactly the missed events, then the live ones', async () => {
  const { game, players } = await newGame(stack.app);
  const watcher = await Watcher.open(stack.baseUrl, game.id);
  const moves = MATE_GAME.slice(0, 6);
  let seq = 1;
  for (const [ply, usi] of moves.slice(0, 2).entries())
    seq = (await playMove(stack.app, game.id, ply % 2 ? players.gote.token : players.sente.token, usi, ply)).verdict
      .seq;
  await watcher.waitForSeq(seq);
  const seen = seq;
  await watcher.close();
  // two moves while away
  for (const [i, usi] of moves.slice(2, 4).entries()) {
    const ply = 2 + i;
    seq = (await playMove(stack.app, game.id, ply % 2 ? players.gote.token : players.sente.token, usi, ply)).verdict
      .seq;
  }
  const back = await Watcher.open(stack.baseUrl, game.id, seen);
  await back.waitForSeq(seq);
  expect(back.received[0]).toMatchObject({ type: 'resume', gameId: game.id, since: seen });
  for (const [i, usi] of moves.slice(4).entries()) {
    const ply = 4 + i;
    seq = (await playMove(stack.app, game.id, ply % 2 ? players.gote.token : players.sente.token, usi, ply)).verdict
      .seq;
  }
  await back.waitForSeq(seq);
  expect(back.seqs).toEqual(range(seen + 1, seq));
  expect(back.moves).toEqual(moves.slice(2));
  await back.close();
});

test('a spectator socket is read-only; unknown games and resumes past the end are refused before the upgrade', async () => {
  const { game } = await newGame(stack.app);
  const watcher = await Watcher.open(stack.baseUrl, game.id);
  watcher.ws.send(JSON.stringify({ type: 'move', usi: '7g7f', ply: 0 }));
  await watcher.waitFor(() => watcher.received.some((m) => m.type === 'error'));
  const error = watcher.received.find((m) => m.type === 'error');
  expect(error).toMatchObject({ error: { code: 'SPECTATOR_READ_ONLY' } });
  await watcher.close();
  await expect(Watcher.open(stack.baseUrl, 'no-such-game')).rejects.toThrow('HTTP 404');
  await expect(Watcher.open(stack.baseUrl, game.id, 99)).rejects.toThrow('HTTP 400');
});

test('a frame above the size limit closes the socket with 1009; a client that stops answering pings is dropped', async () => {
  const { game } = await newGame(stack.app);
  const big = await Watcher.open(stack.baseUrl, game.id);
  big.ws.send('x'.repeat(stack.config.wsMaxPayload + 1));
  expect(await big.closed).toBe(1009);
  // autoPong off: this client never answers, so the gateway terminates it after two periods
  const url = `${stack.baseUrl.replace(/^http/, 'ws')}/api/games/${game.id}/watch`;
  const mute = new WebSocket(url, { autoPong: false });
  const lively = await Watcher.open(stack.baseUrl, game.id);
  const closed = new Promise<number>((resolve) => mute.once('close', (code) => resolve(code)));
  expect(await closed).toBe(1006);
  expect(lively.ws.readyState).toBe(WebSocket.OPEN);
  await lively.close();
});

test('the spectating routes are in the OpenAPI document, the watch WebSocket too', async () => {
  const docs = await call(stack.app, 'GET', '/docs/json');
  expect(docs.status).toBe(200);
  for (const path of ['/api/games/{id}/stream', '/api/live', '/api/games/{id}/watch'])
    expect(Object.keys(docs.body.paths)).toContain(path);
});
