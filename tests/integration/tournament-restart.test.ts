/**
 * The director across gateways: two gateways on one database and Redis, one directing under the
 * lease; the directing one stops mid-arena and the other goes on with no pairing lost or made
 * twice; a wave recorded by a director that died before creating its games is created by the
 * director that next holds the lease, under the ids the wave recorded.
 */
import { buildApp, directorLeaseKey } from '@shogi/gateway';
import { closeClient } from '@shogi/redis';
import { createPgTournamentEventStore } from '@shogi/store';
import { TournamentCommandHandler } from '@shogi/tournament';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, playMove, type Stack, silentLogger, startStack, testRedis } from './harness.js';

let stack: Stack;
let second: FastifyInstance | null = null;
beforeAll(async () => {
  stack = await startStack({ config: { tournamentTickMs: 100, tournamentLeaseMs: 1000 } });
  second = await buildApp(stack.config, silentLogger());
});
afterAll(async () => {
  await second?.close();
  await stack?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Line {
  id: string;
  status: string;
  players: { sente: { id: string }; gote: { id: string } };
}
const linesOf = async (id: string): Promise<Line[]> =>
  (await stack.app.inject({ method: 'GET', url: `/api/tournament/${id}/games` })).body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

describe('the tournament director across gateways', () => {
  test('a gateway stopped mid-arena: the other directs on; a recorded wave is never lost nor doubled', async () => {
    const guests: { id: string; token: string }[] = [];
    for (const name of ['ivy', 'jon', 'kim', 'lee', 'max', 'ned'])
      guests.push((await call(stack.app, 'POST', '/api/players', { name })).body);
    const byId = new Map(guests.map((g) => [g.id, g]));
    const t = (
      await call(
        stack.app,
        'POST',
        '/api/tournament',
        { clockTime: 0.5, clockIncrement: 0, minutes: 5, startDate: Date.now() + 1000, rated: false },
        bearer((guests[0] as { token: string }).token),
      )
    ).body;
    // joins through both gateways
    for (const [i, g] of guests.slice(0, 4).entries())
      expect(
        (
          await call(
            i % 2 === 0 ? stack.app : (second as FastifyInstance),
            'POST',
            `/api/tournament/${t.id}/join`,
            {},
            bearer(g.token),
          )
        ).status,
      ).toBe(200);
    // 1. the first wave: two games, created
    const first = await until('the first wave', async () => {
      const lines = await linesOf(t.id);
      return lines.length === 2 ? lines : null;
    });
    for (const g of first)
      await until(`game ${g.id}`, async () =>
        (await call(stack.app, 'GET', `/api/games/${g.id}`)).status === 200 ? true : null,
      );
    // 2. the second gateway stops (its lease, if it held it, handed over)
    await second?.close();
    second = null;
    // 3. a director that records a wave and dies before creating its games, still holding the
    //    lease: a holder of our own takes the lease over (the live director's renewal then fails
    //    and it stops directing), and the wave is recorded with no game made
    const redis = testRedis('tournament-lease');
    const key = directorLeaseKey(stack.config);
    await redis.set(key, 'a director that died', 'PX', 60_000);
    await sleep(300);
    for (const g of guests.slice(4))
      expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(g.token))).status).toBe(200);
    const handler = new TournamentCommandHandler({ store: createPgTournamentEventStore(stack.db) });
    const [n1, n2] = guests.slice(4).map((g) => g.id) as [string, string];
    const lostId = '00000000-0000-4000-8000-0000000000aa';
    const recorded = await handler.handle(t.id, {
      type: 'PairPlayers',
      pairings: [{ gameId: lostId, sente: n1, gote: n2 }],
    });
    expect(recorded.kind).toBe('appended');
    await sleep(500);
    expect((await call(stack.app, 'GET', `/api/games/${lostId}`)).status).toBe(404);
    // the dead director's lease lapses: the gateway left takes it and creates the recorded game
    await redis.del(key);
    await closeClient(redis);
    await until('the recorded game created', async () =>
      (await call(stack.app, 'GET', `/api/games/${lostId}`)).status === 200 ? true : null,
    );
    expect((await call(stack.app, 'GET', `/api/games/${lostId}`)).body.players).toMatchObject({
      sente: { id: n1 },
      gote: { id: n2 },
    });
    // 4. the first games end; the gateway left pairs the next wave
    for (const g of first) {
      const sente = byId.get(g.players.sente.id) as { token: string };
      await playMove(stack.app, g.id, sente.token, '7g7f', 0);
      expect((await call(stack.app, 'POST', `/api/games/${g.id}/resign`, {}, bearer(sente.token))).status).toBe(202);
    }
    const after = await until('the next wave', async () => {
      const lines = await linesOf(t.id);
      return lines.filter((l) => l.status === 'playing').length >= 2 && lines.length >= 4 ? lines : null;
    });
    // 5. never two games at once for a player, every paired game exists once
    const playing = after.filter((l) => l.status === 'playing').flatMap((l) => [l.players.sente.id, l.players.gote.id]);
    expect(new Set(playing).size).toBe(playing.length);
    expect(new Set(after.map((l) => l.id)).size).toBe(after.length);
    for (const l of after) expect((await call(stack.app, 'GET', `/api/games/${l.id}`)).status).toBe(200);
  }, 60_000);
});
