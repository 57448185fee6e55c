/**
 * What the validate and flag processors of a worker share: the states, the command handler
 * over them, each game's order, and how they publish.
 */
import { CommandHandler, type EventStore, GameStates } from '@shogi/game';
import type { EventEnvelope } from '@shogi/pipeline';
import type { Logger } from 'pino';

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

/**
 * Each game's jobs in this process, one after another: a verdict and a flag check of the
 * same game would otherwise decide on the same state and one of them lose its append.
 */
export class OneAtATime {
  private readonly chains = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier task of the same game, whether those failed or not. */
  run<T>(gameId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(gameId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    this.chains.set(gameId, tail);
    void tail.then(() => {
      if (this.chains.get(gameId) === tail) this.chains.delete(gameId);
    });
    return run;
  }
}

/** Publishes a game's new events (a JSON array of envelopes on its channel). */
export type Publish = (gameId: string, events: readonly EventEnvelope[]) => Promise<void>;

/** The log is the truth: a lost publish costs a client a catch-up read by seq, never a verdict. */
export function publishQuietly(
  publish: Publish,
  logger: Logger | undefined,
  gameId: string,
  message: readonly EventEnvelope[],
  what = 'publish',
): Promise<void> {
  return publish(gameId, message).catch((err: unknown) => {
    logger?.warn({ err, gameId }, `${what} failed; clients catch up from the log`);
  });
}
