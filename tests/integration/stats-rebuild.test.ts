/**
 * The statistics projection: two live projectors running while games are appended and
 * records imported count every finished game exactly once, and a rebuild from position 0
 * gives tables identical to the live ones.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameEvent } from '@shogi/game';
import { gameCreated, randomPlayout } from '@shogi/game/testing';
import { START_SFEN } from '@shogi/rules';
import {
  appendEvents,
  DERIVED_STATS_TABLES,
  importRecord,
  projectBatch,
  readCheckpoint,
  rebuildStats,
  resultsSummary,
  startProjector,
} from '@shogi/store';
import { createTestDatabase, type TestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';

const ROOT = join(process.env.SHOGI_FIXTURES ?? '../shared/fixtures', 'games/wcsc28');
const PLAYERS = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id.toUpperCase() }));
const quiet = { info: () => undefined, error: (o: object) => console.error(o) };

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ max: 8 });
});
afterAll(async () => t?.drop());

/** A live-like game: created, moves appended a few at a time, then its end (unless left ongoing). */
async function playGame(i: number): Promise<boolean> {
  const gameId = `g${i}`;
  const p = randomPlayout(i, 40 + (i % 7) * 10);
  const at = new Date(Date.UTC(2026, 0, 1 + (i % 5), 12, 0, i)).toISOString();
  const sente = PLAYERS[i % 4] ?? PLAYERS[0];
  const gote = PLAYERS[(i + 1) % 4] ?? PLAYERS[1];
  let seq = (await appendEvents(t.db, gameId, 0, [gameCreated(gameId, { sente, gote, createdAt: at } as never)]))
    .lastSeq;
  for (let m = 0; m < p.moves.length; m += 8) {
    const events: GameEvent[] = [];
    p.moves.slice(m, m + 8).forEach((usi, k) => {
      const ply = m + k;
      const color = ply % 2 === 0 ? 'sente' : 'gote';
      const playerId = (color === 'sente' ? sente : gote)?.id ?? '';
      events.push(
        { type: 'MoveSubmitted', data: { playerId, color, usi, ply, receivedAt: at } },
        {
          type: 'MoveAccepted',
          data: { submittedSeq: seq + events.length + 1, ply: ply + 1, usi, sfen: START_SFEN, check: false },
        },
      );
    });
    seq = (await appendEvents(t.db, gameId, seq, events)).lastSeq;
  }
  if (i % 6 === 5) return false; // still ongoing: not a finished game
  const o = p.outcome;
  const end: GameEvent[] =
    o.status === 'ongoing'
      ? [
          { type: 'Resigned', data: { color: i % 2 ? 'sente' : 'gote', at } },
          { type: 'GameEnded', data: { winner: i % 2 ? 'gote' : 'sente', reason: 'resignation', at } },
        ]
      : [
          {
            type: 'GameEnded',
            data: {
              winner: 'winner' in o && o.winner !== null ? (o.winner === 0 ? 'sente' : 'gote') : null,
              reason: o.status,
              at,
            },
          },
        ];
  await appendEvents(t.db, gameId, seq, end);
  return true;
}

async function snapshot(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of DERIVED_STATS_TABLES) {
    const r = await sql.raw(`select * from ${table}`).execute(t.db);
    out[table] = r.rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

test('live projectors count each finished game once; a rebuild equals the live tables', async () => {
  // 1. two projectors race over the same log while games are played and records imported
  const a = startProjector({ db: t.db, logger: quiet, intervalMs: 10, span: 37 });
  const b = startProjector({ db: t.db, logger: quiet, intervalMs: 10, span: 53 });
  const files = readdirSync(ROOT).slice(0, 20);
  const [ended] = await Promise.all([
    Promise.all(Array.from({ length: 36 }, (_, i) => playGame(i))),
    (async () => {
      for (const f of files) {
        const r = await importRecord(t.db, readFileSync(join(ROOT, f)), f);
        expect(r.ok).toBe(true);
      }
    })(),
  ]);
  // 2. wait until both have caught up with the log, then stop them
  const { max } = await t.db
    .selectFrom('game_events')
    .select((eb) => eb.fn.max('global_position').as('max'))
    .executeTakeFirstOrThrow();
  while ((await readCheckpoint(t.db)) < Number(max)) await new Promise((r) => setTimeout(r, 20));
  await Promise.all([a.stop(), b.stop()]);

  // 3. every finished game once in finished_games and in the counters
  const finished = ended.filter(Boolean).length + files.length;
  const live = await snapshot();
  expect(live.finished_games).toHaveLength(finished);
  const s = await resultsSummary(t.db, { source: 'all' });
  expect(s.games + s.noResult).toBe(finished);
  // played and imported apart: the imports only under their own source
  const imported = await resultsSummary(t.db, { source: 'imported' });
  expect(imported.games + imported.noResult).toBe(files.length);
  const played = await resultsSummary(t.db);
  expect(played.games + played.noResult).toBe(finished - files.length);

  // 4. truncate and replay from position 0: the same rows
  expect(await rebuildStats(t.db, 100)).toBe(finished);
  expect(await snapshot()).toEqual(live);
});

test('a batch that reaches the horizon says so: a live projector then waits instead of reading again at once', async () => {
  // catch up in small spans: every batch short of the horizon says there is more
  let r = await projectBatch(t.db, 5);
  for (let batches = 0; !r.caughtUp; batches++) {
    expect(r.position).toBeGreaterThan(0);
    expect(batches).toBeLessThan(100_000);
    r = await projectBatch(t.db, 5);
  }
  // ... and the one that says it is caught up stands at the end of the log
  const { max } = await t.db
    .selectFrom('game_events')
    .select((eb) => eb.fn.max('global_position').as('max'))
    .executeTakeFirstOrThrow();
  expect(r.position).toBe(Number(max));
  // new events within one span: read, written, and caught up in the same batch
  await playGame(1_000);
  const before = await readCheckpoint(t.db);
  const next = await projectBatch(t.db, 1_000_000);
  expect(next.position).toBeGreaterThan(before);
  expect(next.caughtUp).toBe(true);
  // nothing new: caught up without moving
  expect(await projectBatch(t.db, 1_000_000)).toMatchObject({ events: 0, position: next.position, caughtUp: true });
});
