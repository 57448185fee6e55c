/**
 * The validation processor: a small idempotent function of (gameId, seq), through the
 * command handler of @shogi/game.
 *
 * 1. The state: the kept one with the job's copy of the submission folded on when it ends
 *    just before it (no read), else the kept one caught up with the log.
 * 2. decide ValidatePending: verdicts for every submission up to seq still without one.
 *    None left (a redelivered job, or another worker was first): done.
 * 3. Append them at the expected seq; on a version conflict someone appended first: the
 *    handler reads again and decides again (usually finding the verdict there).
 * 4. Publish the appended events on the game's channel, behind the submissions they decide
 *    (@shogi/pipeline's messageOf). A redelivered job (retry, or a worker died holding it) that finds the
 *    verdict on record publishes it again, in case the death came between append and
 *    publish; subscribers dedupe by seq.
 * Permanent failures (bad job data, unknown game) throw UnrecoverableError.
 *
 * A batch job (several games' moves, see ValidateBatchJobData) runs each move as above, all
 * at once: their appends share the event store's batched statements. The job fails (and is
 * retried, its finished moves then being no-ops) if any move failed for a reason that may
 * pass; it fails for good only if every failure is permanent.
 */
import { type EventStore, evolve, type GameState, type Handled, type RecordedEvent, type Start } from '@shogi/game';
import { metrics } from '@shogi/metrics';
import {
  type EventEnvelope,
  isValidateBatchJobData,
  isValidateJobData,
  messageOf,
  submissionsIn,
  toEnvelope,
  type ValidateJobData,
} from '@shogi/pipeline';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { type Publish, publishQuietly, type WorkerGames, workerGames } from './worker-games.js';

export interface ValidateDeps {
  readonly events: Pick<EventStore, 'append' | 'readStream'>;
  /** Publishes the new events of a game (JSON array of envelopes on its channel). */
  readonly publish: Publish;
  readonly now?: () => Date;
  readonly logger?: Logger;
  /** The states, handler and order of games shared with the flag processor (default: its own). */
  readonly games?: WorkerGames;
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

/** The job's copy of its submission as recorded, when it has all of it. */
const copyOf = ({ gameId, seq, submitted, submittedAt }: ValidateJobData): EventEnvelope | undefined =>
  submitted === undefined || submittedAt === undefined
    ? undefined
    : { gameId, seq, type: 'MoveSubmitted', data: submitted, recordedAt: submittedAt };

export function createValidateProcessor(
  deps: ValidateDeps,
): (data: unknown, delivery?: JobDelivery) => Promise<ValidateResult> {
  const games = deps.games ?? workerGames(deps.events, { now: deps.now, maxConflicts: deps.maxConflicts });

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
    await publishQuietly(deps.publish, deps.logger, gameId, events.map(toEnvelope), 'republish');
  }

  /** The kept state plus the job's copy of the submission when the kept state ends just before it; else the log's. */
  function startOf({ gameId, seq, submitted }: ValidateJobData): Start {
    const kept = games.states.get(gameId);
    if (kept !== undefined && submitted !== undefined && kept.seq === seq - 1 && kept.status === 'ongoing')
      return { state: evolve(kept, { type: 'MoveSubmitted', data: submitted }) };
    return 'log';
  }

  async function validate(job: ValidateJobData, redelivered: boolean): Promise<ValidateResult> {
    const { gameId, seq } = job;
    const handled: Handled = await games.handler.handle(gameId, { type: 'ValidatePending', seq }, startOf(job));
    if (handled.kind === 'rejected') {
      const { code, message } = handled.rejection;
      // a submission not visible yet is worth a retry; anything else will never change
      if (code === 'unknown_submission') throw new Error(`game ${gameId}: ${message}`);
      throw new UnrecoverableError(`game ${gameId} seq ${seq}: ${code}: ${message}`);
    }
    const { conflicts } = handled;
    if (conflicts > 0) deps.logger?.debug({ gameId, seq, conflicts }, 'version conflicts: read again');
    if (handled.kind === 'unchanged') {
      if (redelivered) await republish(gameId, seq);
      await deps.afterVerdict?.(gameId, handled.state);
      return { appended: 0, verdicts: 0, conflicts };
    }
    // after a conflict, only what the log gave, never the job's copy of the submission
    const submissions = submissionsIn(handled.read, conflicts === 0 ? copyOf(job) : undefined);
    countVerdicts(handled.appended, submissions);
    await publishQuietly(deps.publish, deps.logger, gameId, messageOf(handled.appended, submissions));
    await deps.afterVerdict?.(gameId, handled.after);
    return { appended: handled.appended.length, verdicts: 1, conflicts };
  }

  const one = (move: ValidateJobData, redelivered: boolean) =>
    games.oneAtATime.run(move.gameId, () => validate(move, redelivered));

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

/** The verdicts this worker appended, and each one's time since its submission was recorded. */
function countVerdicts(appended: readonly RecordedEvent[], submissions: ReadonlyMap<number, EventEnvelope>): void {
  const now = Date.now();
  for (const e of appended) {
    if (e.type !== 'MoveAccepted' && e.type !== 'MoveRejected') continue;
    if (e.type === 'MoveAccepted') metrics.movesAccepted.inc();
    else metrics.movesRejected.inc({ stage: 'worker' });
    const submitted = submissions.get(e.data.submittedSeq);
    if (submitted !== undefined)
      metrics.verdictSeconds.observe(Math.max(0, now - Date.parse(submitted.recordedAt)) / 1000);
  }
}
