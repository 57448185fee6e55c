import { findPlayout } from '@shogi/game/testing';
import { enqueueValidate } from '@shogi/pipeline';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker, type WorkerOptions } from '../../apps/worker/src/index.js';
import { createHarness, GOTE, type Harness, SENTE, verdictCounts } from '../../apps/worker/test/harness.js';

const logger = pino({ level: 'silent' });
let h: Harness;
const workers: RunningWorker[] = [];

const start = (concurrency = 8, extra: Partial<WorkerOptions> = {}) =>
  startWorker({
    ...extra,
    ...h.workerTarget,
    databaseUrl: h.t.url,
    logger,
    concurrency,
    prefix: h.prefix,
    channelPrefix: h.channelPrefix,
  }).then((w) => {
    workers.push(w);
    return w;
  });

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await h?.close();
});

/** Plays the moves one by one, awaiting each published verdict; returns the verdicts. */
async function playThrough(gameId: string, moves: readonly string[]) {
  const verdicts = [];
  for (const usi of moves) {
    const seq = await h.submit(gameId, usi);
    verdicts.push(await h.verdict(gameId, seq));
  }
  return verdicts;
}

describe('validation worker (PostgreSQL + BullMQ + Redis)', () => {
  it('1. plays a whole game to checkmate through the queue', async () => {
    await start();
    const game = findPlayout('checkmate');
    await h.createGame('mate');
    const verdicts = await playThrough('mate', game.moves);
    expect(verdicts.slice(0, -1).every((v) => v.length === 1 && v[0]?.type === 'MoveAccepted')).toBe(true);
    const last = verdicts.at(-1) ?? [];
    const winner = game.outcome.status === 'checkmate' && game.outcome.winner === 0 ? 'sente' : 'gote';
    expect(last[1]).toMatchObject({ type: 'GameEnded', data: { reason: 'checkmate', winner } });
    const { submitted, verdicts: counts } = verdictCounts(await h.events('mate'));
    expect(submitted.length).toBe(game.moves.length);
    expect(submitted.every((s) => counts.get(s) === 1)).toBe(true);
  });

  it('2. ends in sennichite at the fourth occurrence', async () => {
    const cycle = ['5i4h', '5a4b', '4h5i', '4b5a'];
    await h.createGame('senni');
    const verdicts = await playThrough('senni', [...cycle, ...cycle, ...cycle]);
    expect(verdicts[11]?.[1]).toMatchObject({ type: 'GameEnded', data: { reason: 'sennichite', winner: null } });
  });

  // gote king on 1a in check from the rook on 5a; sente checks on every move
  const PERPETUAL = '4R3k/9/9/9/9/9/9/9/K8 w - 1';
  const checks = ['1a1b', '5a5b', '1b1a', '5b5a'];
  it('3. perpetual check, default ruleset: the checker may not complete it', async () => {
    await h.createGame('perp-default', { ruleset: 'default', initialSfen: PERPETUAL });
    const verdicts = await playThrough('perp-default', [...checks, ...checks, ...checks]);
    expect(verdicts[11]).toEqual([
      expect.objectContaining({ type: 'MoveRejected', data: expect.objectContaining({ reason: 'perpetual_check' }) }),
    ]);
    // the checker must play something else; the game goes on
    const seq = await h.submit('perp-default', '5b4b');
    expect((await h.verdict('perp-default', seq))[0]?.type).toBe('MoveAccepted');
  });

  it('4. perpetual check, jsa ruleset: the checker loses', async () => {
    await h.createGame('perp-jsa', { ruleset: 'jsa', initialSfen: PERPETUAL });
    const verdicts = await playThrough('perp-jsa', [...checks, ...checks, ...checks]);
    expect(verdicts[11]?.[1]).toMatchObject({ type: 'GameEnded', data: { reason: 'perpetual_check', winner: 'gote' } });
  });

  it('5. the same job delivered twice gives one verdict', async () => {
    await h.createGame('twice');
    const seq = await h.submit('twice', '7g7f', { enqueue: false });
    // two adds with the same job id are one job; a job added again after completion is a no-op
    const add = () => enqueueValidate(h.queue, [{ gameId: 'twice', seq }]);
    await Promise.all([add(), add()]);
    await h.verdict('twice', seq);
    await enqueueValidate(h.queue, [{ gameId: 'twice', seq }], { copy: 'again' });
    await new Promise((r) => setTimeout(r, 300));
    const { verdicts } = verdictCounts(await h.events('twice'));
    expect(verdicts.get(seq)).toBe(1);
  });

  it('6. two workers on one queue: each move of many games gets exactly one verdict', async () => {
    await start(4);
    const games = Array.from({ length: 8 }, (_, i) => `race${i}`);
    const moves = findPlayout('checkmate', 300, 40).moves.slice(0, 30);
    await Promise.all(games.map((g) => h.createGame(g)));
    await Promise.all(
      games.map(async (g) => {
        for (const usi of moves) {
          const seq = await h.submit(g, usi);
          // and the same submission enqueued under a second id, as a racing duplicate
          await enqueueValidate(h.queue, [{ gameId: g, seq }], { copy: 'dup' });
          await h.verdict(g, seq);
        }
      }),
    );
    for (const g of games) {
      const { submitted, verdicts } = verdictCounts(await h.events(g));
      expect(submitted.length).toBe(moves.length);
      expect(submitted.map((s) => verdicts.get(s))).toEqual(submitted.map(() => 1));
    }
  });

  it('7. of two submissions recorded for one ply, the first is accepted and the second rejected stale_ply', async () => {
    await h.createGame('slip');
    const first = await h.submit('slip', '7g7f', { enqueue: false });
    // two submissions recorded for ply 0 (as by a gateway that skipped the pending check)
    const { appendEvents } = await import('@shogi/store');
    await appendEvents(h.t.db, 'slip', first, [
      {
        type: 'MoveSubmitted',
        data: { playerId: GOTE.id, color: 'gote', usi: '3c3d', ply: 0, receivedAt: new Date().toISOString() },
      },
    ]);
    await enqueueValidate(h.queue, [{ gameId: 'slip', seq: first + 1 }]);
    const v2 = await h.verdict('slip', first + 1);
    expect(v2[0]).toMatchObject({ type: 'MoveRejected', data: { reason: 'stale_ply' } });
    expect((await h.verdict('slip', first))[0]?.type).toBe('MoveAccepted');
    expect(SENTE.id).not.toBe(GOTE.id);
  });

  it('8. a submission whose job was never enqueued is found by the sweeper and validated', async () => {
    await start(2, { sweepIntervalMs: 200, sweepAfterMs: 300 });
    await h.createGame('lost');
    const seq = await h.submit('lost', '7g7f', { enqueue: false });
    const [verdict] = await h.verdict('lost', seq, 10_000);
    expect(verdict).toMatchObject({ type: 'MoveAccepted', data: { submittedSeq: seq } });
    const { verdicts } = verdictCounts(await h.events('lost'));
    expect(verdicts.get(seq)).toBe(1);
  });
});
