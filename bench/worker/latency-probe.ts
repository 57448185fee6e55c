/**
 * One game, one move at a time: where does submit→verdict time go? Prints medians of the
 * driver's append, the enqueue, queue wait (added→processing start), processing, and
 * the publish→receipt leg.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { GameEvent } from '@shogi/game';
import { GOTE, gameCreated, randomPlayout, SENTE } from '@shogi/game/testing';
import { enqueueValidate, VALIDATE_QUEUE, type ValidateJob, validateJobId } from '@shogi/pipeline';
import { redisClient } from '@shogi/redis';
import { createPgEventStore } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';
import { Queue } from 'bullmq';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// one Redis: this bench reads the game channels by pattern, which a cluster's sharded channels have not
const ONE_REDIS = { redisUrl: REDIS_URL };
const t = await createTestDatabase({ max: 4 });
const store = createPgEventStore(t.db);
const prefix = `probe${Date.now().toString(36)}`;
const connection = redisClient(ONE_REDIS, 'bench', { maxRetriesPerRequest: null });
const subscriber = redisClient(ONE_REDIS, 'bench');
const queue = new Queue<ValidateJob>(VALIDATE_QUEUE, { connection, prefix });
const child = fork(fileURLToPath(new URL('../../apps/worker/src/main.ts', import.meta.url)), [], {
  execArgv: ['--import', 'tsx', '--conditions=@shogi/source'],
  env: {
    ...process.env,
    DATABASE_URL: t.url,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    CHANNEL_PREFIX: `${prefix}:`,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
await new Promise((r) => child.once('message', r));
let onVerdict: ((at: number) => void) | null = null;
await subscriber.subscribe(`${prefix}:game:p1`);
subscriber.on('message', () => onVerdict?.(performance.now()));
await store.append('p1', 0, [gameCreated('p1')]);
const moves = randomPlayout(7, 120).moves;
const phases: Record<string, number[]> = {
  append: [],
  enqueue: [],
  'queue wait': [],
  processing: [],
  'publish+receive': [],
  total: [],
};
let seq = 1;
for (const [ply, usi] of moves.entries()) {
  const event: GameEvent = {
    type: 'MoveSubmitted',
    data: {
      playerId: ply % 2 ? GOTE.id : SENTE.id,
      color: ply % 2 ? 'gote' : 'sente',
      usi,
      ply,
      receivedAt: new Date().toISOString(),
    },
  };
  const verdict = new Promise<number>((r) => {
    onVerdict = r;
  });
  const t0 = performance.now();
  const wall0 = Date.now();
  const r = await store.append('p1', seq, [event]);
  const t1 = performance.now();
  await enqueueValidate(queue, [{ gameId: 'p1', seq: r.lastSeq }]);
  const t2 = performance.now();
  const t3 = await verdict;
  const done = await queue.getJob(validateJobId('p1', r.lastSeq));
  const processedOn = done?.processedOn ?? 0;
  const finishedOn = done?.finishedOn ?? processedOn;
  phases.append?.push(t1 - t0);
  phases.enqueue?.push(t2 - t1);
  phases['queue wait']?.push(processedOn - (wall0 + (t2 - t0)));
  phases.processing?.push(finishedOn - processedOn);
  phases['publish+receive']?.push(t3 - t2 - (finishedOn - wall0 - (t2 - t0)));
  phases.total?.push(t3 - t0);
  seq = r.lastSeq + (ply === moves.length - 1 ? 2 : 1);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(
  `${moves.length} moves, medians: ` +
    Object.entries(phases)
      .map(([k, v]) => `${k} ${median(v).toFixed(1)} ms`)
      .join(', '),
);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await queue.obliterate({ force: true });
await queue.close();
await Promise.allSettled([subscriber.quit(), connection.quit()]);
await t.drop();
