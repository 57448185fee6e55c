/** A game's log and a processor's cached state: reading it, and appending a decision to it. Shared by the validate and flag processors. */
import { type EventStore, evolve, type GameEvent, type GameState, initialState, type RecordedEvent } from '@shogi/game';
import { type EventEnvelope, toEnvelope } from '@shogi/pipeline';
import type { Logger } from 'pino';
import type { GameCache } from './game-cache.js';

const eventOf = (e: RecordedEvent): GameEvent => ({ type: e.type, data: e.data }) as GameEvent;

/**
 * `from` (the cached state, or nothing) caught up with the game's log, remembered in the
 * cache. A gap can only mean a stale or wrong cached state: it starts over from the log.
 * `seen` gets each event read.
 */
export async function catchUpState(
  events: Pick<EventStore, 'readStream'>,
  cache: GameCache,
  gameId: string,
  from: GameState | undefined,
  seen?: (e: RecordedEvent) => void,
): Promise<GameState> {
  let state = from ?? initialState();
  for (const e of await events.readStream(gameId, state.seq)) {
    if (e.seq !== state.seq + 1) {
      cache.forget(gameId);
      if (from === undefined) throw new Error(`game ${gameId}: event seq ${e.seq} after ${state.seq}`);
      return catchUpState(events, cache, gameId, undefined, seen);
    }
    seen?.(e);
    state = evolve(state, eventOf(e));
  }
  cache.set(gameId, state);
  return state;
}

export interface Committer {
  readonly events: Pick<EventStore, 'append'>;
  readonly publish: (gameId: string, events: readonly EventEnvelope[]) => Promise<void>;
  readonly logger?: Logger | undefined;
}

/**
 * Appends `events` at `state`'s version (a VersionConflictError propagates: the caller
 * re-reads), caches the state after them and publishes them. The log is the truth: a lost
 * publish costs a client a catch-up read by seq, never a verdict.
 *
 * Gateways do not publish a MoveSubmitted on its own (it would cost every player and
 * spectator socket a frame of its own a few milliseconds before its verdict): the verdicts
 * go out behind the submissions they decide, taken from `submissions` (seq → the recorded
 * MoveSubmitted). Without all of them the verdicts go alone and subscribers, seeing the
 * gap, read it from the log.
 */
export async function commit(
  deps: Committer,
  cache: GameCache,
  gameId: string,
  state: GameState,
  events: readonly GameEvent[],
  submissions: ReadonlyMap<number, EventEnvelope> = new Map(),
): Promise<{ appended: number; next: GameState }> {
  const appended = await deps.events.append(gameId, state.seq, events);
  let next = state;
  for (const e of events) next = evolve(next, e);
  cache.set(gameId, next);
  const published = [...submissionsDecided(events, submissions), ...appended.events.map(toEnvelope)];
  await deps.publish(gameId, published).catch((err: unknown) => {
    deps.logger?.warn({ err, gameId }, 'publish failed; clients catch up from the log');
  });
  return { appended: appended.events.length, next };
}

/** The recorded submissions `events` give verdicts on, in seq order; none unless all are known. */
export function submissionsDecided(
  events: readonly GameEvent[],
  submissions: ReadonlyMap<number, EventEnvelope>,
): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  for (const e of events) {
    if (e.type !== 'MoveAccepted' && e.type !== 'MoveRejected') continue;
    const submission = submissions.get(e.data.submittedSeq);
    if (submission === undefined) return [];
    out.push(submission);
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** Keeps the MoveSubmitted events among those read (for `commit`'s `submissions`). */
export const keepSubmissions =
  (into: Map<number, EventEnvelope>) =>
  (e: RecordedEvent): void => {
    if (e.type === 'MoveSubmitted') into.set(e.seq, toEnvelope(e));
  };
