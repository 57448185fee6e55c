/**
 * Clocks and flag fall with real workers, PostgreSQL and Redis: a byoyomi game where a
 * player stops moving ends by timeout exactly once, though its flag job is added again,
 * a second job for the same turn comes (as the sweeper adds), a second worker runs and the
 * first is closed and replaced; a late move is refused as a timeout; clocks folded again
 * from the logged receive times equal the recorded ones; abort and impasse by the routes.
 * Ends with the audit.
 */
import {
  fold,
  foldClock,
  type GameEvent,
  initialState,
  LAG_ALLOWANCE_MS,
  type RecordedClock,
  remaining,
  type SideClock,
  startClock,
  type TimeControl,
} from '@shogi/game';
import { enqueueFlagCheck, flagJobId, flagQueueFor, flagQueuePlaces } from '@shogi/pipeline';
import { catchUp } from '@shogi/store';
import { sweepOverdueClocks } from '@shogi/worker';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from './audit.js';
import {
  bearer,
  call,
  closeTestQueue,
  newGame,
  playMove,
  type Stack,
  startStack,
  startTestWorker,
  testQueue,
  waitForEvent,
} from './harness.js';

let stack: Stack;
/** The flag queues, split by game as the validate queues are (several on a Redis Cluster). */
let flagQueues: Queue[] = [];
/** The queue a game's flag checks go to. */
const flagQueueOf = (gameId: string) => flagQueueFor(flagQueues, gameId) as Queue;
const workers: { close(): Promise<void> }[] = [];
const startWorker = async () => {
  const w = await startTestWorker(stack.config.databaseUrl, stack.config.queuePrefix);
  workers.push(w);
  return w;
};

beforeAll(async () => {
  stack = await startStack({ worker: false });
  flagQueues = flagQueuePlaces(stack.config.validateQueues).map(({ name, share }) =>
    testQueue(name, stack.config.queuePrefix, share),
  );
});

afterAll(async () => {
  for (const w of workers) await w.close();
  for (const queue of flagQueues) await closeTestQueue(queue);
  await stack?.close();
});

type Logged = { seq: number; type: string; payload: any };
const eventsOf = async (gameId: string): Promise<Logged[]> =>
  (await call(stack.app, 'GET', `/api/games/${gameId}/events?after=0`)).body.events;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls a job of game `gameId` until it has run (completed or failed), so a duplicate is known to have been processed. */
async function settled(gameId: string, jobId: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await flagQueueOf(gameId).getJobState(jobId);
    if (state === 'completed' || state === 'failed') return state;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${state}`);
    await sleep(50);
  }
}

/** Polls until the job exists (the worker schedules it after publishing the verdict). */
async function waitForJob(gameId: string, jobId: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await flagQueueOf(gameId).getJobState(jobId)) === 'unknown') {
    if (Date.now() > deadline) throw new Error(`no job ${jobId}`);
    await sleep(20);
  }
}

const BYOYOMI_1S: TimeControl = { kind: 'byoyomi', mainSeconds: 0, byoyomiSeconds: 1, periods: 1 };

describe('flag fall', () => {
  it('ends a game by timeout exactly once: duplicate jobs, a second worker, a restarted worker', async () => {
    const w1 = await startWorker();
    const { game, players } = await newGame(stack.app, { timeControl: BYOYOMI_1S, rated: true });
    // 1. the gateway scheduled the first-move timer's job
    expect(await flagQueueOf(game.id).getJobState(flagJobId(game.id, 0))).toBe('delayed');
    // 2. both first moves (free): the clock starts for sente at gote's move
    await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
    const { seq: goteSeq } = await playMove(stack.app, game.id, players.gote.token, '3c3d', 1);
    const started = Date.parse((await eventsOf(game.id))[goteSeq - 1]?.payload.receivedAt);
    // 3. the worker that scheduled sente's flag job goes away; two others take over
    await w1.close();
    await startWorker();
    await startWorker();
    // 4. the same job again (a no-op by its id), and another for the same turn (as a sweep adds)
    const job = { gameId: game.id, ply: 2 };
    expect(await flagQueueOf(game.id).getJobState(flagJobId(game.id, 2))).toBe('delayed');
    await enqueueFlagCheck(flagQueues, job, { delay: 1000 });
    await enqueueFlagCheck(flagQueues, job, { copy: 'again', delay: 2500 });
    // 5. sente never moves: the game ends on time at the deadline, once
    const ended = await waitForEvent(stack.app, game.id, (e) => e.type === 'GameEnded', 20_000);
    expect(ended.payload).toEqual({ winner: 'gote', reason: 'timeout', at: new Date(started + 1000).toISOString() });
    expect(await settled(game.id, flagJobId(game.id, 2))).toBe('completed');
    expect(await settled(game.id, `${flagJobId(game.id, 2)}-again`)).toBe('completed');
    const all = await eventsOf(game.id);
    expect(all.filter((e) => e.type === 'GameEnded')).toHaveLength(1);
    expect(all.at(-1)?.type).toBe('GameEnded');
    // 6. the view shows the result and the clocks stopped, sente's at zero
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    expect(view.result).toEqual({ winner: 'gote', reason: 'timeout' });
    expect(view.clock).toMatchObject({
      sente: { mainMs: 0, periodsLeft: 0, periodMs: 0 },
      running: null,
      started: true,
      deadlineAt: null,
    });
    // 7. rated: the workers' projectors (two of them now) rate the game, and a catch-up run
    //    by hand on top changes nothing: each player has exactly one bullet game, sente lost
    const profile = async (id: string) => (await call(stack.app, 'GET', `/api/players/${id}`)).body;
    const deadline = Date.now() + 15_000;
    while ((await profile(players.gote.id)).ratings.length === 0) {
      if (Date.now() > deadline) throw new Error('the game was never rated');
      await sleep(100);
    }
    await catchUp(stack.db);
    const [sente, gote] = [await profile(players.sente.id), await profile(players.gote.id)];
    expect(sente.ratings).toMatchObject([{ category: 'bullet', games: 1, losses: 1, wins: 0 }]);
    expect(gote.ratings).toMatchObject([{ category: 'bullet', games: 1, wins: 1, losses: 0 }]);
    expect(sente.ratings[0].rating).toBeLessThan(1500);
    expect(gote.ratings[0].rating).toBeGreaterThan(1500);
    for (const p of [players.sente, players.gote]) {
      const history = (await call(stack.app, 'GET', `/api/players/${p.id}/ratings/bullet/history`)).body;
      expect(history.points.map((x: { gameId: string }) => x.gameId)).toEqual([game.id]);
    }
  });

  it('refuses a move that comes after the deadline as a timeout, and ends the game once', async () => {
    const { game, players } = await newGame(stack.app, { timeControl: BYOYOMI_1S });
    await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
    await playMove(stack.app, game.id, players.gote.token, '3c3d', 1);
    // no worker runs while sente thinks too long: the move is recorded, then judged
    for (const w of workers.splice(0)) await w.close();
    await sleep(1000 + LAG_ALLOWANCE_MS + 300);
    const late = await call(
      stack.app,
      'POST',
      `/api/games/${game.id}/moves`,
      { usi: '2g2f', ply: 2 },
      bearer(players.sente.token),
    );
    expect(late.status).toBe(202);
    await startWorker();
    const verdict = await waitForEvent(stack.app, game.id, (e) => e.type === 'MoveRejected', 20_000);
    expect(verdict.payload).toMatchObject({ submittedSeq: late.body.seq, reason: 'timeout' });
    const ended = await waitForEvent(stack.app, game.id, (e) => e.type === 'GameEnded');
    expect(ended.payload).toMatchObject({ winner: 'gote', reason: 'timeout' });
    expect(ended.seq).toBe(verdict.seq + 1);
  });

  it('decides a flag that fell while every worker was down once one is back, at the flag instant', async () => {
    if (workers.length === 0) await startWorker();
    const { game, players } = await newGame(stack.app, { timeControl: BYOYOMI_1S });
    await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
    const { seq } = await playMove(stack.app, game.id, players.gote.token, '3c3d', 1);
    await waitForJob(game.id, flagJobId(game.id, 2));
    const started = Date.parse((await eventsOf(game.id))[seq - 1]?.payload.receivedAt);
    // every worker goes away; sente's time (and the lag allowance) runs out with nobody to see it
    for (const w of workers.splice(0)) await w.close();
    await sleep(1000 + LAG_ALLOWANCE_MS + 500);
    expect((await eventsOf(game.id)).some((e) => e.type === 'GameEnded')).toBe(false);
    await startWorker();
    const ended = await waitForEvent(stack.app, game.id, (e) => e.type === 'GameEnded', 20_000);
    expect(ended.payload).toEqual({ winner: 'gote', reason: 'timeout', at: new Date(started + 1000).toISOString() });
    await startWorker(); // a second worker coming back decides nothing more
    await sleep(500);
    expect((await eventsOf(game.id)).filter((e) => e.type === 'GameEnded')).toHaveLength(1);
  });
});

describe('the sweep backstop', () => {
  it('ends on time a game whose flag job was lost, once it is past games.deadline_at', async () => {
    if (workers.length === 0) await startWorker();
    const { game, players } = await newGame(stack.app, { timeControl: BYOYOMI_1S });
    await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
    await playMove(stack.app, game.id, players.gote.token, '3c3d', 1);
    // the turn's delayed job is lost (as with Redis' data): nothing else would end the game
    await waitForJob(game.id, flagJobId(game.id, 2));
    expect(await flagQueueOf(game.id).remove(flagJobId(game.id, 2))).toBe(1);
    const row = () =>
      stack.db
        .selectFrom('games')
        .select(['deadline_at', 'status'])
        .where('id', '=', game.id)
        .executeTakeFirstOrThrow();
    const { deadline_at } = await row();
    expect(deadline_at).not.toBeNull();
    await sleep(Math.max(0, (deadline_at as Date).getTime() + LAG_ALLOWANCE_MS + 200 - Date.now()));
    expect(await sweepOverdueClocks(stack.db, flagQueues, 10_000)).toBeGreaterThanOrEqual(1);
    const ended = await waitForEvent(stack.app, game.id, (e) => e.type === 'GameEnded', 20_000);
    expect(ended.payload).toEqual({ winner: 'gote', reason: 'timeout', at: (deadline_at as Date).toISOString() });
    expect((await row()).deadline_at).toBeNull();
    // swept again with nothing due: no job, nothing more in the log
    expect(await sweepOverdueClocks(stack.db, flagQueues, 10_000)).toBe(0);
  });
});

describe('clocks in the events', () => {
  it('equal the clocks folded again from the logged receive times, live and in the view', async () => {
    const tc: TimeControl = { kind: 'fischer', mainSeconds: 60, incrementSeconds: 2 };
    const { game, players } = await newGame(stack.app, { timeControl: tc });
    const moves = ['7g7f', '3c3d', '2g2f', '8c8d', '2f2e', '8d8e'];
    for (const [i, usi] of moves.entries()) {
      await playMove(stack.app, game.id, (i % 2 === 0 ? players.sente : players.gote).token, usi, i);
      await sleep(30 + 20 * i);
    }
    const log = await eventsOf(game.id);
    const receivedAt = log.filter((e) => e.type === 'MoveSubmitted').map((e) => Date.parse(e.payload.receivedAt));
    const recorded = log.filter((e) => e.type === 'MoveAccepted').map((e) => e.payload.clock as RecordedClock);
    // the first two moves are free; the clock runs for sente from gote's first move
    const start = startClock(tc, receivedAt[1] as number, 'sente');
    for (let n = 3; n <= moves.length; n++) {
      const timed = receivedAt
        .slice(2, n)
        .map((at, i) => ({ color: i % 2 === 0 ? 'sente' : 'gote', receivedAt: at }) as const);
      const folded = foldClock(start, timed);
      expect(folded.kind).toBe('running');
      const r = recorded[n - 1] as RecordedClock;
      expect({ sente: r.sente, gote: r.gote }).toEqual({ sente: folded.clock.sente, gote: folded.clock.gote });
    }
    // the state folded from the log gives the view's clocks at the view's instant
    const state = fold(
      log.map((e) => ({ type: e.type, data: e.payload }) as GameEvent),
      initialState(),
    );
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    const at = Date.parse(view.clock.at);
    const expected = remaining(state.clock!, at);
    expect({ sente: view.clock.sente as SideClock, gote: view.clock.gote as SideClock }).toEqual({
      sente: expected.sente,
      gote: expected.gote,
    });
    expect(view.clock.running).toBe('sente');
  });
});

describe('abort', () => {
  it('lets a player who has not moved abort before both first moves, once', async () => {
    if (workers.length === 0) await startWorker();
    const { game, players } = await newGame(stack.app, {
      timeControl: { kind: 'fischer', mainSeconds: 300, incrementSeconds: 0 },
    });
    await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
    const tooLate = await call(
      stack.app,
      'POST',
      `/api/games/${game.id}/abort`,
      undefined,
      bearer(players.sente.token),
    );
    expect(tooLate).toMatchObject({ status: 409, body: { code: 'TOO_LATE_TO_ABORT' } });
    const stranger = (await call(stack.app, 'POST', '/api/players', { name: 'carol' })).body;
    const notPlayer = await call(stack.app, 'POST', `/api/games/${game.id}/abort`, {}, bearer(stranger.token));
    expect(notPlayer).toMatchObject({ status: 403, body: { code: 'NOT_A_PLAYER' } });
    const key = { ...bearer(players.gote.token), 'idempotency-key': 'abort-1' };
    const aborted = await call(stack.app, 'POST', `/api/games/${game.id}/abort`, {}, key);
    expect(aborted.status).toBe(202);
    expect(await call(stack.app, 'POST', `/api/games/${game.id}/abort`, {}, key)).toEqual({
      status: 202,
      body: aborted.body,
    });
    const again = await call(stack.app, 'POST', `/api/games/${game.id}/abort`, {}, bearer(players.gote.token));
    expect(again).toMatchObject({ status: 409, body: { code: 'GAME_OVER' } });
    const newKey = { ...bearer(players.gote.token), 'idempotency-key': 'abort-2' };
    const another = await call(stack.app, 'POST', `/api/games/${game.id}/abort`, {}, newKey);
    expect(another).toMatchObject({ status: 409, body: { code: 'GAME_OVER' } });
    const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
    expect(view.result).toEqual({ winner: null, reason: 'abort' });
    const events = await eventsOf(game.id);
    expect(events.filter((e) => e.type === 'GameEnded')).toEqual([
      expect.objectContaining({
        seq: aborted.body.seq,
        payload: expect.objectContaining({ reason: 'abort', winner: null }),
      }),
    ]);
  });

  it('refuses once both sides have moved', async () => {
    const { game, players } = await newGame(stack.app);
    await playMove(stack.app, game.id, players.sente.token, '7g7f', 0);
    await playMove(stack.app, game.id, players.gote.token, '3c3d', 1);
    const res = await call(stack.app, 'POST', `/api/games/${game.id}/abort`, undefined, bearer(players.gote.token));
    expect(res).toMatchObject({ status: 409, body: { code: 'TOO_LATE_TO_ABORT' } });
  });
});

describe('impasse declaration', () => {
  // sente's king on 5b with 18 pieces in gote's camp: rook 5 + bishop 5 + 16 others = 26,
  // plus two pawns in hand = 28, the 27-point rule's 28 for sente
  const VALID = 'RBGGSS+N+N+L/4K4/LPPPPPPPL/9/9/9/9/9/4k4 b 2P 1';
  const SHORT = 'RBGGSS+N+N+L/4K4/LPPPPPPPL/9/9/9/9/9/4k4 b - 1'; // 26 points

  it('wins for a valid declaration by the player on move', async () => {
    const { game, players } = await newGame(stack.app, { sfen: VALID });
    const notYours = await call(
      stack.app,
      'POST',
      `/api/games/${game.id}/impasse`,
      undefined,
      bearer(players.gote.token),
    );
    expect(notYours).toMatchObject({ status: 409, body: { code: 'NOT_YOUR_TURN' } });
    const res = await call(stack.app, 'POST', `/api/games/${game.id}/impasse`, undefined, bearer(players.sente.token));
    expect(res.status).toBe(202);
    const events = await eventsOf(game.id);
    expect(events[res.body.seq - 1]).toMatchObject({
      type: 'ImpasseDeclared',
      payload: { color: 'sente', valid: true, points: 28, piecesInCamp: 18 },
    });
    expect((await call(stack.app, 'GET', `/api/games/${game.id}`)).body.result).toEqual({
      winner: 'sente',
      reason: 'impasse',
    });
  });

  it('loses for a wrong declaration', async () => {
    const { game, players } = await newGame(stack.app, { sfen: SHORT });
    // both sides move first: a wrong declaration before that aborts the game (the ply rule)
    await startWorker();
    await playMove(stack.app, game.id, players.sente.token, '5b4b', 0);
    await playMove(stack.app, game.id, players.gote.token, '5i5h', 1);
    const keyed = { ...bearer(players.sente.token), 'idempotency-key': 'declare-1' };
    const res = await call(stack.app, 'POST', `/api/games/${game.id}/impasse`, {}, keyed);
    expect(res.status).toBe(202);
    const events = await eventsOf(game.id);
    expect(events[res.body.seq - 1]).toMatchObject({ type: 'ImpasseDeclared', payload: { valid: false, points: 26 } });
    // the replay answers the declaration's seq; a new key after the end is refused
    expect(await call(stack.app, 'POST', `/api/games/${game.id}/impasse`, {}, keyed)).toEqual(res);
    const other = { ...bearer(players.sente.token), 'idempotency-key': 'declare-2' };
    expect(await call(stack.app, 'POST', `/api/games/${game.id}/impasse`, {}, other)).toMatchObject({
      status: 409,
      body: { code: 'GAME_OVER' },
    });
    expect((await call(stack.app, 'GET', `/api/games/${game.id}`)).body.result).toEqual({
      winner: 'gote',
      reason: 'impasse',
    });
  });
});

describe('the log', () => {
  it('passes the audit: one verdict per submission, nothing after the end, games rows = a replay', async () => {
    const report = await audit(stack.db);
    expect(report.problems).toEqual([]);
    expect(report.games).toBeGreaterThanOrEqual(7);
  });
});
