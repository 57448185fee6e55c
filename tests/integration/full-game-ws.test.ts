/**
 * The player WebSocket on a real port: a whole game to checkmate with both players on
 * their sockets, verdicts and the opponent's moves as they happen, resuming after a
 * reconnect, and bad frames answered with error frames.
 */
import { CLOSE_CODES, type ServerMessage } from '@shogi/protocol';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { PlayerSocket } from '../../apps/server/src/client.js';
import { MATE_GAME } from './fixtures.js';
import { type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ listen: true });
});
afterAll(async () => stack?.close());

const isVerdict = (submittedSeq: number) => (m: ServerMessage) =>
  m.type === 'verdict' && m.submittedSeq === submittedSeq;
const accepted = (socket: PlayerSocket) =>
  socket.received.flatMap((m) => (m.type === 'events' ? m.events : [])).filter((e) => e.type === 'MoveAccepted');

async function setup() {
  const sente = await stack.api.createPlayer('alice');
  const gote = await stack.api.createPlayer('bob');
  const game = await stack.api.createGame({ sente: sente.id, gote: gote.id });
  return { sente, gote, game };
}

describe('the player WebSocket', () => {
  test('a whole game to checkmate, with verdicts and the opponent’s moves pushed', async () => {
    const { sente, gote, game } = await setup();
    const sockets = {
      sente: await stack.api.playerSocket(game.id, sente.token),
      gote: await stack.api.playerSocket(game.id, gote.token),
    };
    expect(await sockets.sente.waitFor((m) => m.type === 'hello')).toMatchObject({ side: 'sente', gameId: game.id });
    for (const [ply, usi] of MATE_GAME.entries()) {
      const side = ply % 2 === 0 ? 'sente' : 'gote';
      const socket = sockets[side];
      socket.send({ type: 'move', usi, ply, idempotencyKey: `k${ply}` });
      const ack = await socket.waitFor((m) => m.type === 'ack' && m.ply === ply);
      if (ack.type !== 'ack') throw new Error('no ack');
      const verdict = await socket.waitFor(isVerdict(ack.seq));
      expect(verdict).toMatchObject({ accepted: true, usi, ply });
    }
    // both sides saw every accepted move and the end, in order and without gaps
    for (const socket of Object.values(sockets)) {
      await socket.waitFor((m) => m.type === 'events' && m.events.some((e) => e.type === 'GameEnded'));
      expect(accepted(socket).map((e) => e.payload.usi)).toEqual([...MATE_GAME]);
      const seqs = socket.received.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.seq) : []));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    const end = sockets.gote.received
      .flatMap((m) => (m.type === 'events' ? m.events : []))
      .find((e) => e.type === 'GameEnded');
    expect(end?.payload).toMatchObject({ winner: 'sente', reason: 'checkmate' });
    // a move after the end is an error frame
    sockets.gote.send({ type: 'move', usi: '5a4b', ply: MATE_GAME.length });
    const error = await sockets.gote.waitFor((m) => m.type === 'error');
    expect(error).toMatchObject({ error: { code: 'GAME_OVER' }, ply: MATE_GAME.length });
    await Promise.all(Object.values(sockets).map((s) => s.close()));
  });

  test('a reconnecting player resumes after the last seq it saw, losing nothing', async () => {
    const { sente, gote, game } = await setup();
    const first = await stack.api.playerSocket(game.id, gote.token);
    await first.waitFor((m) => m.type === 'events');
    await first.close();
    // moves are made while gote is away
    const res = await stack.api.submitMove(game.id, sente.token, { usi: '7g7f', ply: 0 });
    expect(res.status).toBe(202);
    const back = await stack.api.playerSocket(game.id, gote.token, 1);
    const events = await back.waitFor((m) => m.type === 'events' && m.events.some((e) => e.type === 'MoveAccepted'));
    if (events.type !== 'events') throw new Error('unreachable');
    const seen = back.received.flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.seq) : []));
    expect(seen[0]).toBe(2);
    await back.close();
  });

  test('bad frames get error frames; the socket survives them', async () => {
    const { sente, game } = await setup();
    const socket = await stack.api.playerSocket(game.id, sente.token);
    const frames: [string, string][] = [
      ['{not json', 'MALFORMED_JSON'],
      [JSON.stringify({ type: 'move', usi: '7g7f' }), 'BAD_REQUEST'],
      [JSON.stringify({ type: 'move', usi: '7g7f', ply: '0' }), 'BAD_REQUEST'],
      [JSON.stringify({ type: 'move', usi: '7g7f', ply: 0, extra: 1 }), 'BAD_REQUEST'],
      [JSON.stringify({ type: 'dance' }), 'BAD_REQUEST'],
      ['{"type":"resign","__proto__":{"admin":true}}', 'BAD_REQUEST'],
      [JSON.stringify({ type: 'move', usi: 'zzzz', ply: 0 }), 'MALFORMED_USI'],
      [JSON.stringify({ type: 'move', usi: '7g7f', ply: 3 }), 'FUTURE_PLY'],
      [JSON.stringify({ type: 'move', usi: '5a4b', ply: 0 }), 'ILLEGAL_MOVE'],
    ];
    for (const [frame, code] of frames) {
      const before = socket.received.length;
      socket.ws.send(frame);
      const error = await socket.waitFor((m) => m.type === 'error' && socket.received.indexOf(m) >= before);
      expect(error, frame).toMatchObject({ type: 'error', error: { code } });
    }
    // still usable
    socket.send({ type: 'move', usi: '7g7f', ply: 0 });
    expect(await socket.waitFor((m) => m.type === 'ack')).toMatchObject({ ply: 0 });
    const view = await stack.api.game(game.id);
    expect(view.lastSeq).toBeGreaterThanOrEqual(2);
    await socket.close();
  });

  test('twenty bad frames in a row close the socket, and frames sent behind them are not acted on', async () => {
    const { sente, game } = await setup();
    const socket = await stack.api.playerSocket(game.id, sente.token);
    await socket.waitFor((m) => m.type === 'hello');
    // half refused on parsing, half by the game (an unreadable move): both kinds count
    for (let i = 0; i < 20; i++) socket.ws.send(i % 2 ? '{bad' : JSON.stringify({ type: 'move', usi: 'zzzz', ply: 0 }));
    socket.send({ type: 'resign' });
    socket.send({ type: 'move', usi: '7g7f', ply: 0 });
    await new Promise<void>((resolve) => socket.ws.once('close', () => resolve()));
    expect(socket.closeCode).toBe(CLOSE_CODES.TOO_MANY_ERRORS);
    expect(socket.received.filter((m) => m.type === 'ack')).toEqual([]);
    const view = await stack.api.game(game.id);
    expect(view).toMatchObject({ status: 'ongoing', lastSeq: 1 });
  });

  test('a good frame between bad ones restarts the count, in the order the frames were sent', async () => {
    const { sente, game } = await setup();
    const socket = await stack.api.playerSocket(game.id, sente.token);
    await socket.waitFor((m) => m.type === 'hello');
    for (let i = 0; i < 19; i++) socket.ws.send('{bad');
    socket.send({ type: 'move', usi: '7g7f', ply: 0 });
    for (let i = 0; i < 19; i++) socket.ws.send('{bad');
    await socket.waitFor((m) => m.type === 'error' && socket.received.filter((x) => x.type === 'error').length === 38);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    expect(socket.received.some((m) => m.type === 'ack')).toBe(true);
    await socket.close();
  });

  test('an oversized frame closes the socket with 1009', async () => {
    const { sente, game } = await setup();
    const socket = await stack.api.playerSocket(game.id, sente.token);
    socket.ws.send(JSON.stringify({ type: 'move', usi: 'x'.repeat(10_000), ply: 0 }));
    await new Promise<void>((resolve) => socket.ws.once('close', () => resolve()));
    expect(socket.closeCode).toBe(CLOSE_CODES.MESSAGE_TOO_BIG);
    expect((await stack.api.game(game.id)).lastSeq).toBe(1);
  });

  test.each([
    ['no token', (_id: string) => '', 401],
    ['a wrong token', (_id: string) => 'nope', 401],
  ])('the upgrade is refused with %s', async (_name, token, status) => {
    const { game } = await setup();
    const url = `${stack.baseUrl.replace('http', 'ws')}/api/games/${game.id}/ws`;
    const code = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url, token(game.id) ? { headers: { authorization: `Bearer ${token(game.id)}` } } : {});
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(code).toBe(status);
  });

  test.each([
    ['an HTTP route', (id: string) => `/api/games/${id}`],
    ['an unknown path', (_id: string) => '/api/nowhere'],
  ])('an upgrade on %s is refused with 404 and a catalog body, not accepted and closed', async (_name, path) => {
    const { game } = await setup();
    const answer = await new Promise<{ status: number; body: string }>((resolve) => {
      const ws = new WebSocket(`${stack.baseUrl.replace('http', 'ws')}${path(game.id)}`);
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += String(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.on('open', () => resolve({ status: 101, body: '' }));
      ws.on('error', () => {});
    });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'NOT_FOUND' });
  });

  test('the upgrade is refused for another game’s player (403), an unknown game (404), a future seq (400)', async () => {
    const { game, sente } = await setup();
    await expect(stack.api.playerSocket(game.id, sente.token, 99)).rejects.toThrow(/400/);
    const eve = await stack.api.createPlayer('eve');
    await expect(stack.api.playerSocket(game.id, eve.token)).rejects.toThrow(/403/);
    await expect(stack.api.playerSocket('00000000-0000-0000-0000-000000000000', eve.token)).rejects.toThrow(/404/);
  });
});
