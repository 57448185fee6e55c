/**
 * Many writers, two pools (as two processes), batched appends, and a projector polling
 * readAll at the same time: every stream stays dense, no append is lost or doubled, the
 * projector sees every event exactly once and in increasing global order, and the games
 * table equals its rebuild from the log.
 */
import { isVersionConflict, type RecordedEvent } from '@shogi/game';
import { gameCreated, moveSubmitted } from '@shogi/game/testing';
import { compareGamesWithLog, createDb, createPgEventStore, type Db, readStream } from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

let t: TestDatabase;
let other: Db;
beforeAll(async () => {
  t = await createTestDatabase({ max: 8 });
  other = createDb(t.url, { max: 8 });
});
afterAll(async () => {
  await other?.destroy();
  await t?.drop();
});

it('concurrent writers on two pools and a readAll projector: dense streams, each event seen once', async () => {
  const stores = [createPgEventStore(t.db), createPgEventStore(other, { maxInFlight: 2 })];
  const games = Array.from({ length: 12 }, (_, i) => `c${i}`);
  await Promise.all(games.map((g) => stores[0]?.append(g, 0, [gameCreated(g)])));
  const TARGET = 25; // appends per game
  let done = false;
  let appended = 0;
  let conflicts = 0;

  // the projector: polls readAll from its checkpoint while the writers run
  const seen: RecordedEvent[] = [];
  const projector = (async () => {
    const store = stores[1];
    let checkpoint = 0;
    for (;;) {
      const page = store ? await store.readAll(checkpoint, 100) : [];
      seen.push(...page);
      checkpoint = page.at(-1)?.globalPosition ?? checkpoint;
      if (page.length === 0) {
        if (done) return;
        await new Promise((r) => setTimeout(r, 2));
      }
    }
  })();

  // writers: 4 per game, alternating pools, each appending at the seq it last read
  await Promise.all(
    games.flatMap((g) =>
      Array.from({ length: 4 }, async (_, w) => {
        const store = stores[w % 2];
        if (!store) return;
        while (appended < TARGET * games.length) {
          const stream = await store.readStream(g);
          if (stream.length > TARGET) return;
          try {
            await store.append(g, stream.length, [moveSubmitted('7g7f', 0)]);
            appended++;
          } catch (e) {
            if (!isVersionConflict(e)) throw e;
            conflicts++;
          }
        }
      }),
    ),
  );
  done = true;
  await projector;

  for (const g of games) {
    const seqs = (await readStream(t.db, g)).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  }
  const total = (await Promise.all(games.map((g) => readStream(t.db, g)))).reduce((a, s) => a + s.length, 0);
  expect(total).toBe(games.length + appended);
  const positions = seen.map((e) => e.globalPosition);
  expect(new Set(positions).size).toBe(positions.length);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  expect(seen.length).toBe(total);
  expect(conflicts).toBeGreaterThan(0);
  expect((await compareGamesWithLog(t.db)).differences).toEqual([]);
});
