/** An in-memory EventStore for tests and single-process demos. */
import { type AppendResult, type EventStore, VersionConflictError } from '../event-store.js';
import type { GameEvent, RecordedEvent } from '../events.js';

export interface InMemoryEventStoreOptions {
  readonly now?: () => Date;
}

export function createInMemoryEventStore(options: InMemoryEventStoreOptions = {}): EventStore {
  const now = options.now ?? (() => new Date());
  const streams = new Map<string, RecordedEvent[]>();
  const all: RecordedEvent[] = [];
  return {
    async append(gameId: string, expectedSeq: number, events: readonly GameEvent[]): Promise<AppendResult> {
      const stream = streams.get(gameId) ?? [];
      if (stream.length !== expectedSeq) throw new VersionConflictError(gameId, expectedSeq);
      const recordedAt = now().toISOString();
      const recorded = events.map(
        (e, i): RecordedEvent =>
          structuredClone({ ...e, gameId, seq: expectedSeq + i + 1, recordedAt, globalPosition: all.length + i + 1 }),
      );
      stream.push(...recorded);
      all.push(...recorded);
      streams.set(gameId, stream);
      return { lastSeq: expectedSeq + events.length, events: recorded.map((e) => structuredClone(e)) };
    },
    async readStream(gameId: string, afterSeq = 0): Promise<RecordedEvent[]> {
      return (streams.get(gameId) ?? []).slice(afterSeq).map((e) => structuredClone(e));
    },
    async readAll(afterGlobalPosition: number, limit: number): Promise<RecordedEvent[]> {
      return all.slice(afterGlobalPosition, afterGlobalPosition + limit).map((e) => structuredClone(e));
    },
  };
}
