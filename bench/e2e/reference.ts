/**
 * The pipeline issue's reference figures, measured again on this machine, side by side with
 * the figures the issue gives for the machine its targets were set on: how fast this VM is
 * at the raw operations a move is made of, before reading the e2e bench's numbers.
 *
 *   npx tsx --conditions=@shogi/source bench/e2e/reference.ts [--seconds 5]
 *
 * - PostgreSQL: single-row inserts, each its own transaction (synchronous commit), from 1
 *   and from 16 connections of node-postgres in this one process (as the server sends them;
 *   at 16 this process's CPU may be the limit: `pgbench -n -c 16 -j 2 -f` with the same
 *   insert measures the database alone).
 * - BullMQ alone: jobs from add to completed with an empty processor, worker concurrency 1
 *   and 16, a producer in the same process adding them in batches of 100 as they drain.
 * Uses DATABASE_URL (a scratch database is created and dropped) and REDIS_URL (a scratch
 * queue prefix, obliterated afterwards). Bounded: a few seconds per figure.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { redisClient } from '@shogi/redis';
import { poolOf } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';
import { Queue, Worker } from 'bullmq';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const SECONDS = Number(args.seconds);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// one Redis: this bench reads the game channels by pattern, which a cluster's sharded channels have not
const ONE_REDIS = { redisUrl: REDIS_URL };

const rate = (n: number, ms: number) => Math.round((n * 1000) / ms).toLocaleString('en-US');
const row = (what: string, measured: string, reference: string) =>
  console.log(`${what.padEnd(52)} ${measured.padStart(10)}/s   issue's machine: ${reference}`);

async function postgres(): Promise<void> {
  const t = await createTestDatabase({ max: 16, migrate: false });
  const pool = poolOf(t.db);
  if (pool === undefined) throw new Error('no pool');
  try {
    await pool.query('create table bench_rows (id bigserial primary key, payload text not null)');
    for (const clients of [1, 16]) {
      let n = 0;
      const until = performance.now() + SECONDS * 1000;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < until) {
            await pool.query('insert into bench_rows (payload) values ($1)', ['x'.repeat(200)]);
            n++;
          }
        }),
      );
      row(
        `PostgreSQL single-row inserts, node-postgres, ${clients} conn.`,
        rate(n, performance.now() - start),
        clients === 1 ? 'about 4,000/s' : '18,000-20,000/s',
      );
    }
  } finally {
    await t.drop();
  }
}

async function bullmq(): Promise<void> {
  const prefix = `bench${randomBytes(4).toString('hex')}`;
  const connection = redisClient(ONE_REDIS, 'bench', { maxRetriesPerRequest: null });
  try {
    for (const concurrency of [1, 16]) {
      const name = `reference-${concurrency}`;
      const queue = new Queue(name, { connection, prefix });
      const producer = redisClient(ONE_REDIS, 'bench', { maxRetriesPerRequest: null });
      const adder = new Queue(name, { connection: producer, prefix });
      let added = 0;
      let done = 0;
      const worker = new Worker(name, async () => {}, { connection, prefix, concurrency });
      worker.on('completed', () => {
        done++;
      });
      await worker.waitUntilReady();
      const start = performance.now();
      const until = start + SECONDS * 1000;
      // the producer adds in batches of 100 and keeps at most 2,000 jobs waiting
      while (performance.now() < until) {
        if (added - done > 2_000) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          continue;
        }
        await adder.addBulk(
          Array.from({ length: 100 }, (_, i) => ({
            name: 'job',
            data: { i: added + i },
            opts: { removeOnComplete: true },
          })),
        );
        added += 100;
      }
      const ms = performance.now() - start;
      const counted = done;
      await adder.close();
      producer.disconnect();
      await worker.close(true);
      row(
        `BullMQ add → completed, worker concurrency ${concurrency}`,
        rate(counted, ms),
        concurrency === 1 ? 'about 4,000/s' : '10,000-13,000/s (concurrency 8-32)',
      );
      await queue.obliterate({ force: true });
      await queue.close();
    }
  } finally {
    await connection.quit();
  }
}

console.log(`reference operations, ${SECONDS} s each, on this machine:`);
await postgres();
await bullmq();
