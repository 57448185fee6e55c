/**
 * A tournament page's live channel across two gateways: a socket on the second gateway is sent
 * the tournament and its standings page on open, then again after every change made through the
 * first (joins, the start and the director's wave, a game scored), without asking; it follows
 * another page on request; a bad frame is answered with an error, an unknown tournament refused.
 */
import { buildApp } from '@shogi/gateway';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { bearer, call, playMove, type Stack, silentLogger, startStack } from './harness.js';

let stack: Stack;
let second: FastifyInstance;
let secondUrl: string;
beforeAll(async () => {
  stack = await startStack({ listen: true, config: { tournamentTickMs: 100 } });
  // a second gateway process in all but name: its own pools, subscribers and sockets
  second = await buildApp(stack.config, silentLogger());
  secondUrl = await second.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await second?.close();
  await stack?.close();
});

interface Player {
  readonly id: string;
  readonly rank: number;
  readonly score: number;
}
interface Frame {
  readonly type: string;
  readonly version?: number;
  readonly tournament?: {
    readonly nbPlayers: number;
    readonly isStarted: boolean;
    readonly standing: { readonly page: number; readonly players: readonly Player[] };
  };
  readonly error?: { readonly code: string };
}

/** A socket on a tournament page and the frames it was sent, newest last. */
async function watch(baseUrl: string, id: string, query = '') {
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/tournament/${id}/ws${query}`);
  const frames: Frame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const last = () => frames.filter((f) => f.type === 'tournament').at(-1)?.tournament;
  return { socket, frames, last };
}

test('standings reach a socket on another gateway as players join, are paired and score', async () => {
  const [ann, ben] = await Promise.all(
    ['ann', 'ben'].map(async (name) => (await call(stack.app, 'POST', '/api/players', { name })).body),
  );
  const created = await stack.app.inject({
    method: 'POST',
    url: '/api/tournament',
    headers: { ...bearer(ann.token), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      name: 'Live arena',
      clockTime: '0.25',
      clockIncrement: '0',
      minutes: '2',
      startDate: String(Date.now() + 2000),
      rated: 'false',
    }).toString(),
  });
  expect(created.statusCode).toBe(200);
  const { id } = JSON.parse(created.body) as { id: string };

  const live = await watch(secondUrl, id);
  const other = await watch(secondUrl, id, '?page=2');
  // at once: the tournament as it is
  await expect.poll(() => live.last()?.nbPlayers, { timeout: 5_000, interval: 20 }).toBe(0);
  await expect.poll(() => other.last()?.standing.page, { timeout: 5_000, interval: 20 }).toBe(2);

  // joins on the first gateway reach the second's sockets, each on its own page
  for (const p of [ann, ben])
    expect((await call(stack.app, 'POST', `/api/tournament/${id}/join`, {}, bearer(p.token))).status).toBe(200);
  await expect.poll(() => live.last()?.standing.players.length, { timeout: 5_000, interval: 20 }).toBe(2);
  await expect.poll(() => other.last()?.nbPlayers, { timeout: 5_000, interval: 20 }).toBe(2);
  expect(other.last()?.standing.players).toEqual([]);

  // the start and the first wave (the director's), then a game won by gote
  await expect.poll(() => live.last()?.isStarted, { timeout: 10_000, interval: 50 }).toBe(true);
  const game = await (async () => {
    for (;;) {
      const res = await stack.app.inject({ method: 'GET', url: `/api/tournament/${id}/games` });
      const line = res.body.split('\n').find((l) => l !== '');
      if (line !== undefined) {
        const g = JSON.parse(line) as { id: string; players: { sente: { id: string }; gote: { id: string } } };
        if ((await call(stack.app, 'GET', `/api/games/${g.id}`)).status === 200) return g;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const sente = game.players.sente.id === ann.id ? ann : ben;
  const gote = sente === ann ? ben : ann;
  await playMove(stack.app, game.id, sente.token, '7g7f', 0);
  await playMove(stack.app, game.id, gote.token, '3c3d', 1);
  const before = live.frames.length;
  expect((await call(stack.app, 'POST', `/api/games/${game.id}/resign`, {}, bearer(sente.token))).status).toBe(202);
  await expect
    .poll(() => live.last()?.standing.players[0], { timeout: 10_000, interval: 20 })
    .toMatchObject({ id: gote.id, rank: 1, score: 2 });
  expect(live.frames.length).toBeGreaterThan(before);
  // each push carries the stream's version, never going back
  const versions = live.frames.filter((f) => f.type === 'tournament').map((f) => f.version ?? 0);
  expect(versions).toEqual([...versions].sort((a, b) => a - b));

  // another page on request; a bad frame gets an error, and the socket stays
  other.socket.send(JSON.stringify({ type: 'page', page: 1 }));
  await expect.poll(() => other.last()?.standing.players.length, { timeout: 5_000, interval: 20 }).toBe(2);
  other.socket.send('{"type":"page","page":0}');
  other.socket.send('not json');
  await expect
    .poll(() => other.frames.filter((f) => f.type === 'error').map((f) => f.error?.code), { timeout: 5_000 })
    .toEqual(['BAD_REQUEST', 'MALFORMED_JSON']);
  expect(other.socket.readyState).toBe(WebSocket.OPEN);
  live.socket.close();
  other.socket.close();
});

test('a socket on an unknown tournament is refused with 404', async () => {
  const socket = new WebSocket(`${secondUrl.replace('http', 'ws')}/api/tournament/nosuch/ws`);
  socket.on('error', () => undefined);
  const status = await new Promise<number>((resolve) => {
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('open', () => resolve(101));
  });
  expect(status).toBe(404);
  socket.terminate();
});
