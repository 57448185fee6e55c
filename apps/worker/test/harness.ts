/**
 * Integration harness for the worker: a fresh database, a unique BullMQ prefix and
 * channel prefix, a subscriber collecting published verdicts, and the gateway's half
 * of a move (decide SubmitMove, append, enqueue) done directly against the store. On the
 * Redis of REDIS_URL, or on the cluster REDIS_CLUSTER_NODES names (one validate queue there
 * too, under its hash tag: `workerTarget` and `workerEnv` give a worker the same).
 */
import { randomBytes } from 'node:crypto';
import {
  decide,
  evolve,
  type GameEvent,
  type GameState,
  initialState,
  isVersionConflict,
  type RecordedEvent,
} from '@shogi/game';
import { GOTE, SENTE, T0 } from '@shogi/game/testing';
import { type EventEnvelope, enqueueValidate, gameChannel, VALIDATE_QUEUE, type ValidateJob } from '@shogi/pipeline';
import {
  channelSubscriber,
  closeClient,
  clusterNodesText,
  onCluster,
  queuePrefix,
  redisClient,
  redisTargetFromEnv,
} from '@shogi/redis';
import type { Ruleset } from '@shogi/rules';
import { appendEvents, readStream } from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { Queue } from 'bullmq';

export const REDIS_TARGET = redisTargetFromEnv(process.env);
export const REDIS_URL = REDIS_TARGET.redisUrl;
const ON_CLUSTER = onCluster(REDIS_TARGET);

export interface Harness {
  readonly t: TestDatabase;
  readonly prefix: string;
  readonly channelPrefix: string;
  /** the validate queue's key prefix (on a cluster its hash tag), for a test's own Worker or QueueEvents */
  readonly validatePrefix: string;
  /** startWorker's Redis options for this harness's queue */
  readonly workerTarget: {
    redisUrl: string;
    redisClusterNodes: typeof REDIS_TARGET.redisClusterNodes;
    validateQueues: 1;
  };
  /** the same for a worker process's environment */
  readonly workerEnv: { REDIS_URL: string; REDIS_CLUSTER_NODES: string; VALIDATE_QUEUES: '1' };
  readonly queue: Queue<ValidateJob>;
  /** Every envelope published on this harness's channels, in arrival order. */
  readonly published: EventEnvelope[];
  createGame(gameId: string, options?: { ruleset?: Ruleset; initialSfen?: string }): Promise<void>;
  /** Records a move by the side to move (or `playerId`) and enqueues its job; returns its seq. */
  submit(gameId: string, usi: string, options?: { playerId?: string; enqueue?: boolean }): Promise<number>;
  /** Resolves with the published verdict events for submission `seq` (waits up to timeoutMs). */
  verdict(gameId: string, seq: number, timeoutMs?: number): Promise<EventEnvelope[]>;
  events(gameId: string): Promise<RecordedEvent[]>;
  close(): Promise<void>;
}

const eventOf = (e: RecordedEvent): GameEvent => ({ type: e.type, data: e.data }) as GameEvent;

export async function createHarness(): Promise<Harness> {
  const t = await createTestDatabase({ max: 10 });
  const prefix = `wt${randomBytes(4).toString('hex')}`;
  const channelPrefix = `${prefix}:`;
  const validatePrefix = queuePrefix(ON_CLUSTER, prefix, VALIDATE_QUEUE);
  const connection = redisClient(REDIS_TARGET, 'test-harness-queue', { maxRetriesPerRequest: null });
  // each game's channel, subscribed as the game is created (a cluster has no sharded patterns)
  const subscriber = channelSubscriber(redisClient(REDIS_TARGET, 'test-harness-subscriber', { subscriber: true }));
  const queue = new Queue<ValidateJob>(VALIDATE_QUEUE, { connection, prefix: validatePrefix });
  const published: EventEnvelope[] = [];
  const waiters = new Set<() => void>();
  subscriber.on('message', (_channel, message) => {
    published.push(...(JSON.parse(message) as EventEnvelope[]));
    for (const w of waiters) w();
  });

  async function state(gameId: string): Promise<GameState> {
    let s = initialState();
    for (const e of await readStream(t.db, gameId)) s = evolve(s, eventOf(e));
    return s;
  }

  const verdictOf = (gameId: string, seq: number): EventEnvelope[] => {
    const i = published.findIndex(
      (e) =>
        e.gameId === gameId &&
        (e.type === 'MoveAccepted' || e.type === 'MoveRejected') &&
        (e.data as { submittedSeq: number }).submittedSeq === seq,
    );
    if (i < 0) return [];
    const first = published[i] as EventEnvelope;
    const next = published[i + 1];
    return next?.gameId === gameId && next.type === 'GameEnded' && next.seq === first.seq + 1 ? [first, next] : [first];
  };

  return {
    t,
    prefix,
    channelPrefix,
    validatePrefix,
    workerTarget: { redisUrl: REDIS_URL, redisClusterNodes: REDIS_TARGET.redisClusterNodes, validateQueues: 1 },
    workerEnv: {
      REDIS_URL,
      REDIS_CLUSTER_NODES: clusterNodesText(REDIS_TARGET.redisClusterNodes),
      VALIDATE_QUEUES: '1',
    },
    queue,
    published,
    async createGame(gameId, options = {}) {
      await subscriber.subscribe(gameChannel(gameId, channelPrefix, 1));
      const d = decide(
        {
          type: 'CreateGame',
          gameId,
          sente: SENTE,
          gote: GOTE,
          ruleset: options.ruleset ?? 'default',
          now: T0,
          ...(options.initialSfen === undefined ? {} : { initialSfen: options.initialSfen }),
        },
        initialState(),
      );
      if (!d.ok) throw new Error(d.rejection.message);
      await appendEvents(t.db, gameId, 0, d.events);
    },
    async submit(gameId, usi, options = {}) {
      for (;;) {
        const s = await state(gameId);
        const playerId = options.playerId ?? (s.sideToMove === 'sente' ? SENTE.id : GOTE.id);
        const d = decide({ type: 'SubmitMove', playerId, usi, ply: s.ply, now: new Date() }, s);
        if (!d.ok) throw new Error(`${usi}: ${d.rejection.code} ${d.rejection.message}`);
        try {
          const r = await appendEvents(t.db, gameId, s.seq, d.events);
          if (options.enqueue !== false) await enqueueValidate(queue, [{ gameId, seq: r.lastSeq }]);
          return r.lastSeq;
        } catch (e) {
          if (!isVersionConflict(e)) throw e;
        }
      }
    },
    verdict(gameId, seq, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const v = verdictOf(gameId, seq);
          if (v.length === 0) return;
          waiters.delete(check);
          clearTimeout(timer);
          // a GameEnded arrives in the same message as its MoveAccepted
          resolve(v);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no verdict for ${gameId} seq ${seq} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    events: (gameId) => readStream(t.db, gameId),
    async close() {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      await Promise.allSettled([closeClient(subscriber.client), closeClient(connection)]);
      await t.drop();
    },
  };
}

/** Submission seqs and the submissions each verdict answers, from the stored log. */
export function verdictCounts(events: readonly RecordedEvent[]): {
  submitted: number[];
  verdicts: Map<number, number>;
} {
  const submitted = events.filter((e) => e.type === 'MoveSubmitted').map((e) => e.seq);
  const verdicts = new Map<number, number>();
  for (const e of events) {
    if (e.type === 'MoveAccepted' || e.type === 'MoveRejected') {
      const s = e.data.submittedSeq;
      verdicts.set(s, (verdicts.get(s) ?? 0) + 1);
    }
  }
  return { submitted, verdicts };
}

export { GOTE, SENTE };
