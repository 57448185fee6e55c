/**
 * Fair play's screening in the engine role: a sweep that finds the rated games to screen (of
 * reported accounts, leaderboard tops, fast risers, boosting winners) and queues them, one job
 * per game, and one BullMQ worker that screens them one at a time on engines leased at the
 * lowest priority (PRIORITY.screening), so bot moves and analyses always go first.
 */
import {
  analysisOptions,
  type EngineResources,
  SCREENING_QUEUE,
  type ScreeningJobData,
  screeningJobId,
} from '@shogi/engine-bots';
import type { RedisClient } from '@shogi/redis';
import {
  botAccountsAmong,
  type Db,
  DEFAULT_SELECTION,
  fairplayDb,
  readStream,
  refreshAggregate,
  saveAssessments,
  screenedPlayers,
  unscreenedGames,
} from '@shogi/store';
import { type EnginePool, PRIORITY } from '@shogi/usi';
import { Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { type ScreeningOutcome, type ScreeningPorts, type ScreenPosition, screenGame } from './screen-game.js';

/** The engine's first three choices: lila and lishogi count moves among them. */
export const SCREENING_LINES = 3;

export function poolScreener(pool: EnginePool, resources: EngineResources): ScreenPosition {
  return (position, depth, signal) =>
    pool.run(
      async (engine) => {
        await engine.setOptions({ ...analysisOptions(resources), MultiPV: SCREENING_LINES });
        const result = await engine.search(
          { position, limits: { kind: 'fixed', depth } },
          signal === undefined ? {} : { signal },
        );
        const best = result.infos[0];
        if (best?.score === undefined) throw new Error('the engine gave no score');
        const lines = result.infos.flatMap((info) =>
          info.pv?.[0] === undefined || info.score === undefined ? [] : [{ move: info.pv[0], score: info.score }],
        );
        return { score: best.score, lines: lines.slice(0, SCREENING_LINES) };
      },
      signal === undefined ? { priority: PRIORITY.screening } : { priority: PRIORITY.screening, signal },
    );
}

export function storeScreeningPorts(db: Db, screen: ScreenPosition, depth: number): ScreeningPorts {
  const fp = fairplayDb(db);
  return {
    depth,
    screen,
    readEvents: (gameId) => readStream(db, gameId),
    bots: async (ids) => new Set(await botAccountsAmong(db, ids)),
    save: (rows) => saveAssessments(fp, rows),
    async refresh(playerId) {
      await refreshAggregate(fp, playerId, new Date());
    },
    now: () => new Date(),
  };
}

export interface ScreeningOptions {
  readonly connection: RedisClient;
  readonly prefix: string;
  readonly db: Db;
  readonly ports: ScreeningPorts;
  /** between sweeps for games to screen; 0: no sweep (games are queued by `sweep()` only) */
  readonly sweepMs: number;
  /** games queued by one sweep at most */
  readonly sweepGames?: number;
  /** players screened beside the selection's (which has the tournaments' top places already): an operator's list */
  readonly extraPlayers?: () => Promise<readonly string[]>;
  readonly logger: Logger;
}

export interface RunningScreening {
  /** Finds the games to screen now and queues them; resolves to how many were queued. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

export function startScreening(options: ScreeningOptions): RunningScreening {
  const { logger, db } = options;
  const queue = new Queue<ScreeningJobData>(SCREENING_QUEUE, {
    connection: options.connection,
    prefix: options.prefix,
  });
  const worker = new Worker<ScreeningJobData, ScreeningOutcome>(
    SCREENING_QUEUE,
    async (job, _token, signal) => {
      const outcome = await screenGame(job.data.gameId, options.ports, signal);
      logger.info({ gameId: job.data.gameId, ...outcome }, 'game screened');
      return outcome;
    },
    // one game at a time: screening is the lowest priority and never needs more than one engine
    { connection: options.connection, prefix: options.prefix, concurrency: 1 },
  );
  worker.on('failed', (job, err) => logger.warn({ err, gameId: job?.data.gameId }, 'screening failed'));
  worker.on('error', (err) => logger.error({ err }, 'screening queue'));

  const sweep = async (): Promise<number> => {
    const now = new Date();
    const extra = (await options.extraPlayers?.()) ?? [];
    const players = await screenedPlayers(db, now, DEFAULT_SELECTION, extra);
    const games = await unscreenedGames(db, [...players.keys()], now, options.sweepGames ?? 50);
    for (const g of games)
      await queue.add(
        'screen',
        { gameId: g.gameId },
        {
          jobId: screeningJobId(g.gameId),
          attempts: 3,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: { age: 3600 },
          removeOnFail: { age: 24 * 3600 },
        },
      );
    return games.length;
  };
  let timer: NodeJS.Timeout | null = null;
  if (options.sweepMs > 0) {
    timer = setInterval(() => {
      sweep().catch((err: unknown) => logger.warn({ err }, 'screening sweep failed'));
    }, options.sweepMs);
    timer.unref();
  }
  return {
    sweep,
    async close() {
      if (timer !== null) clearInterval(timer);
      const closed = worker.close();
      worker.cancelAllJobs('the engine role is stopping');
      await closed;
      await queue.close();
    },
  };
}
