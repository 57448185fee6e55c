/**
 * The gateway enqueues the moves it recorded in one turn of its event loop as one
 * validate job (`{ moves }`): a real worker gives each of them exactly one verdict.
 */
import { type ValidateJob, validateQueuePlaces } from '@shogi/pipeline';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, call, closeTestQueue, newGame, type Stack, startStack, testQueue, waitForEvent } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

test('moves submitted together leave as batch jobs; each move gets exactly one verdict', async () => {
  const games = await Promise.all(Array.from({ length: 16 }, () => newGame(stack.app)));
  // every validate queue (several on a Redis Cluster, the moves split by game)
  const queues = validateQueuePlaces(stack.config.validateQueues).map(({ name, share }) =>
    testQueue<ValidateJob>(name, stack.config.queuePrefix, share),
  );
  try {
    for (const [ply, usi] of ['7g7f', '3c3d'].entries()) {
      const submitted = await Promise.all(
        games.map(({ game, players }) =>
          call(
            stack.app,
            'POST',
            `/api/games/${game.id}/moves`,
            { usi, ply },
            bearer((ply === 0 ? players.sente : players.gote).token),
          ),
        ),
      );
      expect(submitted.map((r) => r.status)).toEqual(games.map(() => 202));
      await Promise.all(
        games.map(({ game }, i) =>
          waitForEvent(
            stack.app,
            game.id,
            (e) => e.type === 'MoveAccepted' && e.payload.submittedSeq === submitted[i]?.body.seq,
          ),
        ),
      );
    }
    for (const { game } of games) {
      const { body } = await call(stack.app, 'GET', `/api/games/${game.id}/events?after=0`);
      const verdicts = body.events.filter(
        (e: { type: string }) => e.type === 'MoveAccepted' || e.type === 'MoveRejected',
      );
      expect(verdicts.map((e: { payload: { usi: string } }) => e.payload.usi)).toEqual(['7g7f', '3c3d']);
    }
    // the 32 moves went out in fewer jobs than moves, and some job carried several games' moves
    const jobs = (await Promise.all(queues.map((q) => q.getCompleted(0, 1000)))).flat();
    const moves = jobs.flatMap((j) => ('moves' in j.data ? j.data.moves : [j.data]));
    expect(moves).toHaveLength(32);
    expect(jobs.length).toBeLessThan(32);
    expect(Math.max(...jobs.map((j) => ('moves' in j.data ? j.data.moves.length : 1)))).toBeGreaterThan(1);
  } finally {
    await Promise.all(queues.map(closeTestQueue));
  }
});
