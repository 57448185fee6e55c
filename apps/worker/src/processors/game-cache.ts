/**
 * Per-process cache of folded game states (least recently used first out), so a job
 * reads only the tail of a stream it has not seen, and a per-game chain so jobs of one
 * game in this process run one after another instead of colliding on the version.
 */
import type { GameState } from '@shogi/game';

export class GameCache {
  private readonly states = new Map<string, GameState>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly capacity: number;

  constructor(capacity = 2_000) {
    this.capacity = capacity;
  }

  get(gameId: string): GameState | undefined {
    const s = this.states.get(gameId);
    if (s !== undefined) {
      this.states.delete(gameId);
      this.states.set(gameId, s);
    }
    return s;
  }

  /** Keeps the most advanced state; ended games leave the cache (no more moves come). */
  set(gameId: string, state: GameState): void {
    const old = this.states.get(gameId);
    if (old !== undefined && old.seq > state.seq) return;
    this.states.delete(gameId);
    if (state.status === 'ended') return;
    this.states.set(gameId, state);
    if (this.states.size > this.capacity) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.states.delete(oldest);
    }
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
