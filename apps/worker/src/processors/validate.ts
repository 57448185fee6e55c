/**
 * The validation processor: a small idempotent function of (gameId, seq).
 *
 * 1. Fold the game's events: the cached state plus the tail it has not seen.
 * 2. decide ValidatePending: verdicts for every submission up to seq still without one.
 *    None left (a redelivered job, or another worker was first): done.
 * 3. Append them at the expected seq; on VersionConflictError someone appended first:
 *    re-read and decide again (usually finding the verdict there).
 * 4. Publish the appended events on the game's channel, behind the submissions they decide
 *    (gateways do not publish a submission alone). The log is the truth: a lost
 *    publish costs a client a catch-up read by seq, never a verdict.
 *    A redelivered job (retry, or a worker died holding it) that finds the verdict on
 *    record publishes it again, in case the death came between append and publish;
 *    subscribers dedupe by seq.
 * Permanent failures (bad job data, unknown game) throw UnrecoverableError.
 *
 * A batch job (several games' moves, see ValidateBatchJobData) runs each move as above, all
 * at once: their appends share the event store's batched statements. The job fails (and is
 * retried, its finished moves then being no-ops) if any move failed for a reason that may
 * pass; it fails for good only if every failure is permanent.
 */
import { decide, type EventStore, evolve, type GameState, isVersionConflict } from '@shogi/game';
import {
  type EventEnvelope,
  isValidateBatchJobData,
  isValidateJobData,
  toEnvelope,
  type ValidateJobData,
} from '@shogi/pipeline';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { catchUpState, commit, keepSubmissions } from './catch-up.js';
import { GameCache } from './game-cache.js';

export interface ValidateDeps {
  readonly events: Pick<EventStore, 'append' | 'readStream'>;
  /** Publishes the new events of a game (JSON array of envelopes on its channel). */
  readonly publish: (gameId: string, events: readonly EventEnvelope[]) => Promise<void>;
  readonly now?: () => Date;
  readonly logger?: Logger;
  readonly cache?: GameCache;
  /**
   * Called with the game's state after each job (the flag job of its current turn is
   * scheduled here); a failure fails the job, and the retry calls it again.
   */
  readonly afterVerdict?: (gameId: string, state: GameState) => Promise<void>;
  /** Re-read-and-decide rounds after version conflicts before giving up (the job is retried). */
  readonly maxConflicts?: number;
}

export interface ValidateResult {
  /** Events this call appended (0: the verdict was already there). */
  readonly appended: number;
  /** Jobs' moves this call gave their verdict (the rest had one already). */
  readonly verdicts: number;
  readonly conflicts: number;
}

/** How the job came: `redelivered` when an earlier attempt started (a retry or a stalled job). */
export interface JobDelivery {
  readonly redelivered?: boolean;
}

export function createValidateProcessor(
  deps: ValidateDeps,
): (data: unknown, delivery?: JobDelivery) => Promise<ValidateResult> {
  const cache = deps.cache ?? new GameCache();
  const now = deps.now ?? (() => new Date());
  const maxConflicts = deps.maxConflicts ?? 20;

  const catchUp = (
    gameId: string,
    from: GameState | undefined,
    submissions: Map<number, EventEnvelope>,
  ): Promise<GameState> => catchUpState(deps.events, cache, gameId, from, keepSubmissions(submissions));

  /** A redelivered job may have died between append and publish: publish the verdict on record again. */
  async function republish(gameId: string, seq: number): Promise<void> {
    const tail = await deps.events.readStream(gameId, seq - 1);
    const i = tail.findIndex(
      (e) => (e.type === 'MoveAccepted' || e.type === 'MoveRejected') && e.data.submittedSeq === seq,
    );
    const verdict = tail[i];
    if (verdict === undefined) return;
    const next = tail[i + 1];
    const submission = tail[0]?.seq === seq ? [tail[0]] : [];
    const ending = next?.type === 'GameEnded' && next.seq === verdict.seq + 1 ? [next] : [];
    const events = verdict.seq === seq + 1 ? [...submission, verdict, ...ending] : [verdict, ...ending];
    await deps.publish(gameId, events.map(toEnvelope)).catch((err: unknown) => {
      deps.logger?.warn({ err, gameId }, 'republish failed; clients catch up from the log');
    });
  }

  /**
   * The state up to `seq`: the cached state plus the job's copy of the submission when the
   * cache ends just before it (no read), else the cache caught up from the log. The recorded
   * submissions it knows of go into `submissions`.
   */
  async function stateFor(job: ValidateJobData, submissions: Map<number, EventEnvelope>): Promise<GameState> {
    const { gameId, seq, submitted, submittedAt } = job;
    if (submitted !== undefined && submittedAt !== undefined)
      submissions.set(seq, { gameId, seq, type: 'MoveSubmitted', data: submitted, recordedAt: submittedAt });
    const cached = cache.get(gameId);
    if (cached !== undefined && submitted !== undefined && cached.seq === seq - 1 && cached.status === 'ongoing')
      return evolve(cached, { type: 'MoveSubmitted', data: submitted });
    return catchUp(gameId, cached, submissions);
  }

  async function validate(job: ValidateJobData, redelivered: boolean): Promise<ValidateResult> {
    const { gameId, seq } = job;
    const submissions = new Map<number, EventEnvelope>();
    let state = await stateFor(job, submissions);
    for (let conflicts = 0; conflicts <= maxConflicts; conflicts++) {
      const decision = decide({ type: 'ValidatePending', seq, now: now() }, state);
      if (!decision.ok) {
        const { code, message } = decision.rejection;
        // a submission not visible yet is worth a retry; anything else will never change
        if (code === 'unknown_submission') throw new Error(`game ${gameId}: ${message}`);
        throw new UnrecoverableError(`game ${gameId} seq ${seq}: ${code}: ${message}`);
      }
      if (decision.events.length === 0) {
        if (redelivered) await republish(gameId, seq);
        await deps.afterVerdict?.(gameId, state);
        return { appended: 0, verdicts: 0, conflicts };
      }
      try {
        const { appended, next } = await commit(deps, cache, gameId, state, decision.events, submissions);
        await deps.afterVerdict?.(gameId, next);
        return { appended, verdicts: 1, conflicts };
      } catch (e) {
        if (!isVersionConflict(e)) throw e;
        deps.logger?.debug({ gameId, seq }, 'version conflict: re-reading');
        // from what the log gave us, never from the job's copy of the submission
        cache.forget(gameId);
        submissions.clear();
        state = await catchUp(gameId, undefined, submissions);
      }
    }
    throw new Error(`game ${gameId} seq ${seq}: still conflicting after ${maxConflicts} re-reads`);
  }

  const one = (move: ValidateJobData, redelivered: boolean) =>
    cache.serialize(move.gameId, () => validate(move, redelivered));

  return async (data: unknown, delivery: JobDelivery = {}): Promise<ValidateResult> => {
    const redelivered = delivery.redelivered === true;
    if (isValidateJobData(data)) return one(data, redelivered);
    if (!isValidateBatchJobData(data))
      throw new UnrecoverableError(`bad validate job data: ${String(JSON.stringify(data)).slice(0, 500)}`);
    const settled = await Promise.allSettled(data.moves.map((move) => one(move, redelivered)));
    const total = { appended: 0, verdicts: 0, conflicts: 0 };
    const failures: unknown[] = [];
    for (const r of settled) {
      if (r.status === 'rejected') failures.push(r.reason);
      else {
        total.appended += r.value.appended;
        total.verdicts += r.value.verdicts;
        total.conflicts += r.value.conflicts;
      }
    }
    if (failures.length === 0) return total;
    const messages = failures.map((e) => (e instanceof Error ? e.message : String(e))).join('; ');
    const summary = `${failures.length} of ${data.moves.length} moves failed: ${messages}`;
    throw failures.every((e) => e instanceof UnrecoverableError) ? new UnrecoverableError(summary) : new Error(summary);
  };
}
