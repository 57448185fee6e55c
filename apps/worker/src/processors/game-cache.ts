/**
 * Per-process cache of folded game states (least recently used first out), so a job
 * reads only the tail of a stream it has not seen, and a per-game chain so jobs of one
 * game in this process run one after another instead of colliding on the version.
 */
import { type GameState, RecentStates } from '@shogi/game';

export class GameCache {
  private readonly states: RecentStates<GameState>;
  private readonly chains = new Map<string, Promise<unknown>>();

  /** `idleMs`: a game without a job here for that long is read from the log again. */
  constructor(capacity = 2_000, idleMs = 60_000) {
    this.states = new RecentStates({ limit: capacity, idleMs });
  }

  get(gameId: string): GameState | undefined {
    return this.states.get(gameId);
  }

  /** Keeps the most advanced state; ended games leave the cache (no more moves come). */
  set(gameId: string, state: GameState): void {
    const old = this.states.peek(gameId);
    if (old !== undefined && old.seq > state.seq) return;
    if (state.status === 'ended') this.states.delete(gameId);
    else this.states.set(gameId, state);
  }

  forget(gameId: string): void {
    this.states.delete(gameId);
  }

  get size(): number {
    return this.states.size;
  }

  /** Runs `task` after every earlier task of the same game in this process. */
  serialize<T>(gameId: string, task: () => Promise<T>): Promise<T> {
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
