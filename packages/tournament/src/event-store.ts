/**
 * The tournament event-store port: one stream per tournament, dense seq from 1, appended at an
 * expected version. The PostgreSQL store (packages/store) writes the projection in the append's
 * transaction, from the state before and the events, which is why `append` takes the state.
 */
import type { TournamentEvent } from './events.js';
import type { TournamentState } from './state.js';

export type RecordedTournamentEvent = TournamentEvent & {
  readonly tournamentId: string;
  readonly seq: number;
  readonly recordedAt: string;
  readonly globalPosition: number;
};

export interface TournamentEventStore {
  /**
   * Appends `events` at seq `before.version + 1..` atomically; throws
   * TournamentVersionConflictError when the stream has moved past `before` (read, decide again).
   */
  append(
    tournamentId: string,
    before: TournamentState,
    events: readonly TournamentEvent[],
  ): Promise<readonly RecordedTournamentEvent[]>;
  /** The stream's events with seq > afterSeq, in order. */
  readStream(tournamentId: string, afterSeq?: number): Promise<readonly RecordedTournamentEvent[]>;
}

export class TournamentVersionConflictError extends Error {
  readonly tournamentId: string;
  readonly expectedVersion: number;
  constructor(tournamentId: string, expectedVersion: number, options?: { cause?: unknown }) {
    super(`version conflict on tournament ${tournamentId}: expected version ${expectedVersion}`, options);
    this.name = 'TournamentVersionConflictError';
    this.tournamentId = tournamentId;
    this.expectedVersion = expectedVersion;
  }
}

export const isTournamentVersionConflict = (e: unknown): e is TournamentVersionConflictError =>
  e instanceof TournamentVersionConflictError || (e instanceof Error && e.name === 'TournamentVersionConflictError');

/** The in-memory store, for tests and single-process tools. */
export class InMemoryTournamentEventStore implements TournamentEventStore {
  private readonly streams = new Map<string, RecordedTournamentEvent[]>();
  private position = 0;

  async append(tournamentId: string, before: TournamentState, events: readonly TournamentEvent[]) {
    const stream = this.streams.get(tournamentId) ?? [];
    if (stream.length !== before.version) throw new TournamentVersionConflictError(tournamentId, before.version);
    const at = new Date().toISOString();
    const recorded = events.map(
      (e, i) =>
        ({
          ...e,
          tournamentId,
          seq: before.version + i + 1,
          recordedAt: at,
          globalPosition: ++this.position,
        }) as RecordedTournamentEvent,
    );
    this.streams.set(tournamentId, [...stream, ...recorded]);
    return recorded;
  }

  async readStream(tournamentId: string, afterSeq = 0) {
    return (this.streams.get(tournamentId) ?? []).filter((e) => e.seq > afterSeq);
  }
}
