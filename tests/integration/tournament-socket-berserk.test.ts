/**
 * Berserk over the player WebSocket: a `{type:'berserk'}` frame goes through the same path as
 * the HTTP berserk routes (tournamentBerserk), so it is acked, halves the main time once,
 * shows in the tournament's games, and is refused with an error frame where the routes refuse it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, call, type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ listen: true, config: { tournamentTickMs: 100 } });
});
afterAll(async () => {
  await stack?.close();
});

async function until<T>(probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('berserk over the player socket', () => {
  test('acked and applied once before the first move, refused after it and outside an arena', async () => {
    const ann = await stack.api.createPlayer('ann');
    const ben = await stack.api.createPlayer('ben');
    const t = (
      await call(
        stack.app,
        'POST',
        '/api/tournament',
        { clockTime: 0.5, clockIncrement: 0, minutes: 5, startDate: Date.now() + 500, rated: false },
        bearer(ann.token),
      )
    ).body;
    for (const p of [ann, ben])
      expect((await call(stack.app, 'POST', `/api/tournament/${t.id}/join`, {}, bearer(p.token))).status).toBe(200);
    // 1. the director pairs them
    const gameId = await until(async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/api/tournament/${t.id}/games` });
      const line = res.body.split('\n')[0];
      return line ? (JSON.parse(line).id as string) : null;
    });
    const game = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body;
    const annSide = game.players.sente.id === ann.id ? 'sente' : 'gote';
    const other = annSide === 'sente' ? 'gote' : 'sente';
    const socket = await stack.api.playerSocket(gameId, ann.token);
    await socket.waitFor((m) => m.type === 'hello');
    // 2. the berserk frame is acked with the seq of its event; the main time is halved (30 s to 15 s)
    socket.send({ type: 'berserk' });
    const ack = await socket.waitFor((m) => m.type === 'ack');
    const events = (await call(stack.app, 'GET', `/api/games/${gameId}/events?after=0`)).body.events as {
      seq: number;
      type: string;
    }[];
    expect(events.find((e) => e.type === 'Berserked')?.seq).toBe((ack as { seq: number }).seq);
    const clock = (await call(stack.app, 'GET', `/api/games/${gameId}`)).body.clock;
    expect(clock[annSide].mainMs).toBe(15_000);
    expect(clock[other].mainMs).toBe(30_000);
    // 3. again: acked, nothing halved twice
    socket.send({ type: 'berserk', idempotencyKey: 'again' });
    const again = await socket.waitFor((m) => m.type === 'ack' && m.idempotencyKey === 'again');
    expect(again).toMatchObject({ type: 'ack', idempotencyKey: 'again' });
    expect((await call(stack.app, 'GET', `/api/games/${gameId}`)).body.clock[annSide].mainMs).toBe(15_000);
    // 4. the tournament's games show it
    const line = JSON.parse(
      (await stack.app.inject({ method: 'GET', url: `/api/tournament/${t.id}/games` })).body.split('\n')[0] as string,
    );
    expect(line.players[annSide].berserk).toBe(true);
    expect(line.players[other].berserk).toBe(false);
    // 5. after ann's first move, the frame is refused as the HTTP route refuses it
    const sente = annSide === 'sente' ? ann : ben;
    const gote = annSide === 'sente' ? ben : ann;
    expect(
      (await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi: '7g7f', ply: 0 }, bearer(sente.token)))
        .status,
    ).toBe(202);
    await until(async () => ((await call(stack.app, 'GET', `/api/games/${gameId}`)).body.ply === 1 ? true : null));
    expect(
      (await call(stack.app, 'POST', `/api/games/${gameId}/moves`, { usi: '3c3d', ply: 1 }, bearer(gote.token))).status,
    ).toBe(202);
    await until(async () => ((await call(stack.app, 'GET', `/api/games/${gameId}`)).body.ply === 2 ? true : null));
    socket.send({ type: 'berserk', idempotencyKey: 'late' });
    const late = await socket.waitFor((m) => m.type === 'error' && m.idempotencyKey === 'late');
    expect(late).toMatchObject({ error: { code: 'NOT_BERSERKABLE' } });
    await socket.close();
  }, 60_000);

  test('a game outside any tournament answers the frame with an error, not an ack', async () => {
    const a = await stack.api.createPlayer('cat');
    const b = await stack.api.createPlayer('dan');
    const game = await stack.api.createGame({ sente: a.id, gote: b.id });
    const socket = await stack.api.playerSocket(game.id, a.token);
    await socket.waitFor((m) => m.type === 'hello');
    socket.send({ type: 'berserk' });
    const refused = await socket.waitFor((m) => m.type === 'error');
    expect(refused).toMatchObject({ error: { code: 'NOT_BERSERKABLE' } });
    expect(socket.received.some((m) => m.type === 'ack')).toBe(false);
    await socket.close();
  });
});
