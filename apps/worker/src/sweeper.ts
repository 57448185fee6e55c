/**
 * The sweeper: a submission is recorded before its job is enqueued, so a gateway that
 * dies in between, or whose enqueue fails (Redis down: the recorded move is acknowledged
 * all the same), leaves a move without a job (and its player waiting). Every interval,
 * each worker looks for submissions that have waited longer than `afterMs` and enqueues
 * them again. Idempotent like every validation; the job id carries the time bucket so
 * several workers sweeping at once add one job, and a failed job's id does not block it.
 * Only ongoing games are looked at: every ending (a player's request, a flag check, a
 * verdict) gives the submissions still pending their verdicts in the same append, so an
 * ended game has none waiting.
 *
 * It is also the backstop of the flag jobs: ongoing games whose side to move ran out
 * (games.deadline_at, plus the lag allowance) get a flag check, for a delayed job lost
 * with Redis' data or never scheduled (a gateway or worker dying after its append).
 *
 * And, once an hour, it deletes the tokens that expired or were revoked longer than the
 * retention ago (every login adds a session token; dead ones only take space), and the
 * counts of HTTP imports older than their day (they hold client addresses).
 */
import { LAG_ALLOWANCE_MS } from '@shogi/game';
import { enqueueFlagCheck, enqueueValidate, type FlagQueues, type ValidateQueues } from '@shogi/pipeline';
import {
  type Db,
  deleteDeadTokens,
  deleteExpiredImportQuotaUses,
  findOverdueClocks,
  findStalledSubmissions,
} from '@shogi/store';
import type { Logger } from 'pino';

export async function sweepStalled(
  db: Db,
  queue: ValidateQueues,
  afterMs: number,
  now: number = Date.now(),
): Promise<number> {
  const stalled = await findStalledSubmissions(db, afterMs);
  const bucket = Math.floor(now / afterMs);
  await Promise.all(
    stalled.map(({ gameId, seq }) => enqueueValidate(queue, [{ gameId, seq }], { copy: `sweep${bucket}` })),
  );
  return stalled.length;
}

/**
 * Enqueues a flag check for every ongoing game past its deadline and the lag allowance; the
 * job id carries the time bucket, as above. Returns how many were found.
 */
export async function sweepOverdueClocks(
  db: Db,
  queues: FlagQueues,
  intervalMs: number,
  now: number = Date.now(),
): Promise<number> {
  const overdue = await findOverdueClocks(db, LAG_ALLOWANCE_MS);
  const bucket = Math.floor(now / intervalMs);
  await Promise.all(
    overdue.map(({ gameId, ply }) => enqueueFlagCheck(queues, { gameId, ply }, { copy: `sweep${bucket}` })),
  );
  return overdue.length;
}

/** How often dead tokens are looked for. */
const TOKEN_CLEANUP_INTERVAL_MS = 3_600_000;

/**
 * Deletes the tokens dead (expired or revoked) for longer than `retentionMs`, in batches of
 * `batch` until a batch deletes nothing. Several workers may do it at once: a batch whose rows
 * another worker deleted first comes back empty and that worker stops, the other goes on.
 */
export async function sweepDeadTokens(db: Db, retentionMs: number, now = Date.now(), batch = 1_000): Promise<number> {
  const before = new Date(now - retentionMs);
  let total = 0;
  for (;;) {
    const n = await deleteDeadTokens(db, before, batch);
    if (n === 0) return total;
    total += n;
  }
}

/** Deletes the import counts past their day (import-quota.ts), in batches until none is left. */
export async function sweepImportQuotas(db: Db, batch = 1_000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteExpiredImportQuotaUses(db, batch);
    if (n === 0) return total;
    total += n;
  }
}

export function startSweeper(
  db: Db,
  queue: ValidateQueues,
  options: {
    intervalMs: number;
    afterMs: number;
    logger: Logger;
    /** the flag queues (`flagQueueNames`), for the clock sweep; none: no clock sweep */
    flagQueues?: FlagQueues;
    /** dead tokens are kept this long (0: never deleted) */
    tokenRetentionMs?: number;
  },
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const flagQueues = options.flagQueues;
  const retention = options.tokenRetentionMs ?? 0;
  // the first sweep cleans up too, so workers restarted more often than hourly still do it
  let nextCleanup = 0;
  const timer = setInterval(() => {
    const stalled = sweepStalled(db, queue, options.afterMs).then(
      (n) => {
        if (n > 0) options.logger.warn({ count: n }, 'sweeper: re-enqueued submissions that waited without a verdict');
      },
      (err: unknown) => options.logger.warn({ err }, 'sweeper: sweep failed'),
    );
    const overdue =
      flagQueues === undefined
        ? null
        : sweepOverdueClocks(db, flagQueues, options.intervalMs).then(
            (n) => {
              if (n > 0) options.logger.info({ count: n }, 'sweeper: flag checks for games past their deadline');
            },
            (err: unknown) => options.logger.warn({ err }, 'sweeper: clock sweep failed'),
          );
    let cleanup: Promise<unknown> | null = null;
    if (Date.now() >= nextCleanup) {
      nextCleanup = Date.now() + TOKEN_CLEANUP_INTERVAL_MS;
      const tokens =
        retention > 0
          ? sweepDeadTokens(db, retention).then(
              (n) => {
                if (n > 0)
                  options.logger.info({ count: n }, 'sweeper: deleted tokens dead for longer than the retention');
              },
              (err: unknown) => options.logger.warn({ err }, 'sweeper: token cleanup failed'),
            )
          : null;
      const imports = sweepImportQuotas(db).then(
        (n) => {
          if (n > 0) options.logger.info({ count: n }, 'sweeper: deleted import counts past their day');
        },
        (err: unknown) => options.logger.warn({ err }, 'sweeper: import count cleanup failed'),
      );
      cleanup = Promise.all([tokens, imports]);
    }
    running = Promise.all([stalled, overdue, cleanup]);
  }, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
