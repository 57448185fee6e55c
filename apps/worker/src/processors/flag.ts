/**
 * The flag processor: a small idempotent function of (gameId, ply) run at a turn's deadline,
 * through the command handler of @shogi/game.
 *
 * 1. The kept state (shared with the validate processor) caught up with the log.
 * 2. decide CheckClock at the worker's `now`: pending submissions get their verdicts first
 *    (a move received in time still counts), then the side to move flags if its time ran out.
 * 3. Append at the expected seq (a version conflict: read again and decide again), publish.
 * An ended game, or a turn already answered by a move, gives nothing: a job delivered twice,
 * a sweep and a racing worker all end the game once. A job that comes before its deadline
 * (clock skew between machines) asks to be retried at the deadline (`retryAt`).
 */
import { type EventStore, type GameState, turnFlagDueAt } from '@shogi/game';
import { isFlagJobData, messageOf, submissionsIn } from '@shogi/pipeline';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { type Publish, publishQuietly, type WorkerGames, workerGames } from './worker-games.js';

export interface FlagDeps {
  readonly events: Pick<EventStore, 'append' | 'readStream'>;
  readonly publish: Publish;
  /** Schedules the flag job of the game's current turn (after a verdict this job gave). */
  readonly schedule: (gameId: string, state: GameState) => Promise<void>;
  readonly now?: () => Date;
  readonly logger?: Logger;
  /** The states, handler and order of games shared with the validate processor (default: its own). */
  readonly games?: WorkerGames;
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

/** When this very turn flags, if the job came before it (by this machine's clock); null otherwise. */
function earlyFor(state: GameState, ply: number, at: Date): number | null {
  if (state.status !== 'ongoing' || state.clock === null || state.ply !== ply) return null;
  const due = turnFlagDueAt(state.clock, state.ply);
  return due !== null && due > at.getTime() ? due : null;
}

export function createFlagProcessor(deps: FlagDeps): (data: unknown) => Promise<FlagResult> {
  const games = deps.games ?? workerGames(deps.events, { now: deps.now, maxConflicts: deps.maxConflicts });

  async function check(gameId: string, ply: number): Promise<FlagResult> {
    const handled = await games.handler.handle(gameId, { type: 'CheckClock' });
    if (handled.kind === 'rejected') throw new UnrecoverableError(`game ${gameId}: ${handled.rejection.code}`);
    if (handled.kind === 'unchanged') {
      const retryAt = earlyFor(handled.state, ply, handled.at);
      return retryAt === null ? { appended: 0, ended: false } : { appended: 0, ended: false, retryAt };
    }
    // the submissions read on the way go out with the verdicts they get here
    const message = messageOf(handled.appended, submissionsIn(handled.read));
    await publishQuietly(deps.publish, deps.logger, gameId, message);
    const next = handled.after;
    const ended = next.status === 'ended';
    if (ended) deps.logger?.info({ gameId, result: next.result }, 'flag: the game ended on the clock');
    // a pending move it accepted started a new turn
    else await deps.schedule(gameId, next);
    return { appended: handled.appended.length, ended };
  }

  return async (data: unknown): Promise<FlagResult> => {
    if (!isFlagJobData(data)) throw new UnrecoverableError(`bad flag job data: ${JSON.stringify(data)}`);
    return games.oneAtATime.run(data.gameId, () => check(data.gameId, data.ply));
  };
}
