/**
 * The event-store port: one stream per game, dense seq from 1, optimistic concurrency
 * by expected seq. Implementations: the in-memory store (testing/) and the PostgreSQL
 * store (packages/store). Both pass the contract suite in testing/event-store-contract.ts.
 */
import type { GameEvent, RecordedEvent } from './events.js';

export interface AppendResult {
  /** seq of the last appended event. */
  readonly lastSeq: number;
  readonly events: RecordedEvent[];
}

export interface EventStore {
  /**
   * Appends `events` at seq expectedSeq+1.. atomically. Throws VersionConflictError when
   * the stream's last seq is not `expectedSeq` (someone appended first: re-read, decide again).
   */
  append(gameId: string, expectedSeq: number, events: readonly GameEvent[]): Promise<AppendResult>;
  /** The stream's events with seq > afterSeq, in order. */
  readStream(gameId: string, afterSeq?: number): Promise<RecordedEvent[]>;
  /**
   * Events of all streams with global position > after, in global order, at most `limit`;
   * never skips an event that becomes visible later (see packages/store for how).
   */
  readAll(afterGlobalPosition: number, limit: number): Promise<RecordedEvent[]>;
}

export class VersionConflictError extends Error {
  readonly gameId: string;
  readonly expectedSeq: number;
  constructor(gameId: string, expectedSeq: number, options?: { cause?: unknown }) {
    super(`version conflict on game ${gameId}: expected last seq ${expectedSeq}`, options);
    this.name = 'VersionConflictError';
    this.gameId = gameId;
    this.expectedSeq = expectedSeq;
  }
}

export const isVersionConflict = (e: unknown): e is VersionConflictError =>
  e instanceof VersionConflictError || (e instanceof Error && e.name === 'VersionConflictError');
