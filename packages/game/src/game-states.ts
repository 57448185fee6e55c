/**
 * Folded game states kept by a process, caught up with the log through the event-store
 * port: a command costs a read of the events it has not seen, never a replay of the game.
 * Bounded in count and idle time (recent-states.ts). Shared by every front end of a process
 * through the command handler.
 */
import type { EventStore } from './event-store.js';
import { type GameEvent, isGameEventType, type RecordedEvent } from './events.js';
import { evolve } from './evolve.js';
import { RecentStates } from './recent-states.js';
import { type GameState, initialState } from './state.js';

export interface GameStatesOptions {
  /** Games kept at most. */
  readonly limit: number;
  /** A game without a use here for this long is read from the log again (default 60 s). */
  readonly idleMs?: number;
  /**
   * Keep ended games: a command on one (a replayed resignation, a move sent too late) is
   * then answered without a read. A worker, which gets no more commands for an ended game,
   * lets them go at once.
   */
  readonly keepEnded: boolean;
}

/** A state caught up with the log, and the events read to catch it up. */
export interface CaughtUp {
  readonly state: GameState;
  readonly read: readonly RecordedEvent[];
}

const none: readonly RecordedEvent[] = [];

export class GameStates {
  private readonly events: Pick<EventStore, 'readStream'>;
  private readonly map: RecentStates<GameState>;
  private readonly keepEnded: boolean;

  constructor(events: Pick<EventStore, 'readStream'>, options: GameStatesOptions) {
    this.events = events;
    this.map = new RecentStates({ limit: options.limit, idleMs: options.idleMs ?? 60_000 });
    this.keepEnded = options.keepEnded;
  }

  /** The kept state, as it is (possibly behind the log), without counting as a use. */
  peek(gameId: string): GameState | undefined {
    return this.map.peek(gameId);
  }

  /** The kept state, as it is (possibly behind the log). */
  get(gameId: string): GameState | undefined {
    return this.map.get(gameId);
  }

  /**
   * The kept state (or the empty one) caught up with the log, and kept. A gap in what the
   * log gives can only mean a wrong kept state: the game is read again from its start.
   */
  async current(gameId: string): Promise<CaughtUp> {
    const kept = this.map.get(gameId);
    const from = kept ?? initialState();
    const read = await this.events.readStream(gameId, from.seq);
    let state = from;
    for (const e of read) {
      if (e.seq !== state.seq + 1) {
        if (kept === undefined) throw new Error(`game ${gameId}: event seq ${e.seq} after ${state.seq}`);
        this.map.delete(gameId);
        return this.current(gameId);
      }
      state = evolve(state, e as GameEvent);
    }
    this.keep(gameId, state);
    return { state, read: read.length === 0 ? none : read };
  }

  /** Keeps `state` unless a state further along is kept already. */
  keep(gameId: string, state: GameState): void {
    if (state.status === 'none') return;
    const kept = this.map.peek(gameId);
    if (kept !== undefined && kept.seq > state.seq) return;
    if (state.status === 'ended' && !this.keepEnded) this.map.delete(gameId);
    else this.map.set(gameId, state);
  }

  /**
   * Folds events seen published onto the kept state when they follow it exactly; anything
   * else (a gap, a type the game does not know) leaves it as it is, for the next command to
   * catch up from the log.
   */
  observe(gameId: string, events: readonly RecordedEvent[]): void {
    const kept = this.map.peek(gameId);
    if (kept === undefined) return;
    let s = kept;
    for (const e of events) {
      if (e.seq <= s.seq) continue;
      if (e.seq !== s.seq + 1 || typeof e.type !== 'string' || !isGameEventType(e.type)) return;
      s = evolve(s, e as GameEvent);
    }
    if (s !== kept) this.keep(gameId, s);
  }

  forget(gameId: string): void {
    this.map.delete(gameId);
  }

  get size(): number {
    return this.map.size;
  }
}
