/**
 * The flag processor: a small idempotent function of (gameId, ply) run at a turn's deadline.
 *
 * 1. Fold the game (the cache shared with the validate processor, plus the log's tail).
 * 2. decide CheckClock at the worker's `now`: pending submissions get their verdicts first
 *    (a move received in time still counts), then the side to move flags if its time ran out.
 * 3. Append at the expected seq (a version conflict: re-read and decide again), publish.
 * An ended game, or a turn already answered by a move, gives nothing: a job delivered twice,
 * a sweep and a racing worker all end the game once. A job that comes before its deadline
 * (clock skew between machines) asks to be retried at the deadline (`retryAt`).
 */
import { decide, type EventStore, type GameState, isVersionConflict, turnFlagDueAt } from '@shogi/game';
import { type EventEnvelope, isFlagJobData } from '@shogi/pipeline';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { catchUpState, commit, keepSubmissions } from './catch-up.js';
import { GameCache } from './game-cache.js';

export interface FlagDeps {
  readonly events: Pick<EventStore, 'append' | 'readStream'>;
  readonly publish: (gameId: string, events: readonly EventEnvelope[]) => Promise<void>;
  /** Schedules the flag job of the game's current turn (after a verdict this job gave). */
  readonly schedule: (gameId: string, state: GameState) => Promise<void>;
  readonly now?: () => Date;
  readonly logger?: Logger;
  readonly cache?: GameCache;
  readonly maxConflicts?: number;
}

export interface FlagResult {
  /** Events this call appended: 0 when there was nothing to do (or it was done already). */
  readonly appended: number;
  /** Whether this call ended the game. */
  readonly ended: boolean;
  /** The turn's flag is not due yet at this worker's clock: run the job again then. */
  readonly retryAt?: number;
}

export function createFlagProcessor(deps: FlagDeps): (data: unknown) => Promise<FlagResult> {
  const cache = deps.cache ?? new GameCache();
  const now = deps.now ?? (() => new Date());
  const maxConflicts = deps.maxConflicts ?? 20;

  // the submissions read on the way, published with the verdicts they get here
  const fold = (
    gameId: string,
    from: GameState | undefined,
    submissions: Map<number, EventEnvelope>,
  ): Promise<GameState> => catchUpState(deps.events, cache, gameId, from, keepSubmissions(submissions));

  async function check(gameId: string, ply: number): Promise<FlagResult> {
    const submissions = new Map<number, EventEnvelope>();
    let state = await fold(gameId, cache.get(gameId), submissions);
    for (let conflicts = 0; conflicts <= maxConflicts; conflicts++) {
      const at = now();
      const decision = decide({ type: 'CheckClock', now: at }, state);
      if (!decision.ok) throw new UnrecoverableError(`game ${gameId}: ${decision.rejection.code}`);
      if (decision.events.length === 0) {
        // this very turn, not yet flagged: the job came early
        const due = state.status === 'ongoing' && state.clock !== null && state.ply === ply;
        const retryAt = due && state.clock ? turnFlagDueAt(state.clock, state.ply) : null;
        return retryAt !== null && retryAt > at.getTime()
          ? { appended: 0, ended: false, retryAt }
          : { appended: 0, ended: false };
      }
      try {
        const { appended, next } = await commit(deps, cache, gameId, state, decision.events, submissions);
        const ended = next.status === 'ended';
        if (ended) deps.logger?.info({ gameId, result: next.result }, 'flag: the game ended on the clock');
        // a pending move it accepted started a new turn
        else await deps.schedule(gameId, next);
        return { appended, ended };
      } catch (e) {
        if (!isVersionConflict(e)) throw e;
        cache.forget(gameId);
        submissions.clear();
        state = await fold(gameId, undefined, submissions);
      }
    }
    throw new Error(`game ${gameId}: flag check still conflicting after ${maxConflicts} re-reads`);
  }

  return async (data: unknown): Promise<FlagResult> => {
    if (!isFlagJobData(data)) throw new UnrecoverableError(`bad flag job data: ${JSON.stringify(data)}`);
    return cache.serialize(data.gameId, () => check(data.gameId, data.ply));
  };
}
