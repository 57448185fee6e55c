/** What the validate and flag processors of a worker share: the states, the command handler over them, and each game's order. */
import { CommandHandler, type EventStore, GameStates } from '@shogi/game';
import { OneAtATime } from './one-at-a-time.js';

export interface WorkerGames {
  readonly states: GameStates;
  readonly handler: CommandHandler;
  readonly oneAtATime: OneAtATime;
}

export interface WorkerGamesOptions {
  /** Game states kept (default 2,000). */
  readonly cacheSize?: number;
  readonly now?: (() => Date) | undefined;
  /** Re-read-and-decide rounds after version conflicts before a job gives up (and is retried). */
  readonly maxConflicts?: number | undefined;
}

export function workerGames(
  events: Pick<EventStore, 'append' | 'readStream'>,
  options: WorkerGamesOptions = {},
): WorkerGames {
  // ended games leave at once: no command comes for them here
  const states = new GameStates(events, { limit: options.cacheSize ?? 2_000, keepEnded: false });
  const handler = new CommandHandler({
    events,
    states,
    maxConflicts: options.maxConflicts ?? 20,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { states, handler, oneAtATime: new OneAtATime() };
}
