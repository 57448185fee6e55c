/**
 * One contract suite for every EventStore implementation (after Emmett's shared
 * event-store features): run it with a factory for a fresh store.
 */
import { describe, expect, it } from 'vitest';
import { type EventStore, isVersionConflict } from '../event-store.js';
import { gameCreated, moveSubmitted } from './fixtures.js';

export interface EventStoreUnderTest {
  readonly store: EventStore;
  readonly close?: () => Promise<void>;
}

let counter = 0;
const newId = (): string =>
  `g${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export function eventStoreContract(name: string, make: () => Promise<EventStoreUnderTest>): void {
  describe(`EventStore contract: ${name}`, () => {
    const withStore = async (body: (store: EventStore) => Promise<void>): Promise<void> => {
      const { store, close } = await make();
      try {
        await body(store);
      } finally {
        await close?.();
      }
    };

    it('appends at expected+1.. and reads the stream back as written', () =>
      withStore(async (store) => {
        const id = newId();
        const r = await store.append(id, 0, [gameCreated(id), moveSubmitted('7g7f', 0)]);
        expect(r.lastSeq).toBe(2);
        expect(r.events.map((e) => e.seq)).toEqual([1, 2]);
        const read = await store.readStream(id);
        expect(read.map((e) => [e.seq, e.type, e.gameId])).toEqual([
          [1, 'GameCreated', id],
          [2, 'MoveSubmitted', id],
        ]);
        expect(read[0]?.data).toEqual(gameCreated(id).data);
        expect(read[1]?.data).toEqual(moveSubmitted('7g7f', 0).data);
        expect(Number.isNaN(Date.parse(read[0]?.recordedAt ?? ''))).toBe(false);
        expect(await store.readStream(id, 1)).toEqual(read.slice(1));
        expect(await store.readStream(newId())).toEqual([]);
      }));

    it('rejects a stale or a future expected seq with VersionConflictError and writes nothing', () =>
      withStore(async (store) => {
        const id = newId();
        await store.append(id, 0, [gameCreated(id)]);
        for (const expected of [0, 2, 5]) {
          const e = await store.append(id, expected, [moveSubmitted('7g7f', 0)]).catch((x: unknown) => x);
          expect(isVersionConflict(e), `expected ${expected}`).toBe(true);
        }
        expect((await store.readStream(id)).length).toBe(1);
      }));

    it('lets exactly one of concurrent appends at the same expected seq win', () =>
      withStore(async (store) => {
        const id = newId();
        await store.append(id, 0, [gameCreated(id)]);
        const tries = ['7g7f', '2g2f', '5g5f', '1g1f'].map((usi) => store.append(id, 1, [moveSubmitted(usi, 0)]));
        const results = await Promise.allSettled(tries);
        expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1);
        for (const r of results) if (r.status === 'rejected') expect(isVersionConflict(r.reason)).toBe(true);
        expect((await store.readStream(id)).length).toBe(2);
      }));

    it('reads all streams in global order from a position, in pages', () =>
      withStore(async (store) => {
        const before = await readEverything(store, 0);
        const start = before.at(-1)?.globalPosition ?? 0;
        const a = newId();
        const b = newId();
        await store.append(a, 0, [gameCreated(a)]);
        await store.append(b, 0, [gameCreated(b), moveSubmitted('7g7f', 0)]);
        await store.append(a, 1, [moveSubmitted('2g2f', 0)]);
        const page = await store.readAll(start, 2);
        expect(page.length).toBe(2);
        const rest = await readEverything(store, start);
        const ours = rest.filter((e) => e.gameId === a || e.gameId === b);
        expect(ours.map((e) => `${e.gameId === a ? 'a' : 'b'}${e.seq}`)).toEqual(['a1', 'b1', 'b2', 'a2']);
        const positions = rest.map((e) => e.globalPosition);
        expect([...positions].sort((x, y) => x - y)).toEqual(positions);
        expect(new Set(positions).size).toBe(positions.length);
      }));
  });
}

async function readEverything(store: EventStore, after: number) {
  const out = [];
  let from = after;
  for (;;) {
    const page = await store.readAll(from, 100);
    if (page.length === 0) return out;
    out.push(...page);
    from = page.at(-1)?.globalPosition ?? from;
  }
}
