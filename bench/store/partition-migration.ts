/**
 * How long migration 0014 holds the log (appends wait for it): a fresh database migrated to
 * 0013, filled with EVENTS synthetic events (20 a game, a small JSON payload each), then
 * migrated up to the partitioned log and down again, each timed.
 *
 *   npx tsx --conditions=@shogi/source bench/store/partition-migration.ts [EVENTS]
 */
import { createMigrator } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';
import { sql } from 'kysely';

const EVENTS = Number(process.argv[2] ?? 1_000_000);
if (!Number.isInteger(EVENTS) || EVENTS <= 0) throw new Error('EVENTS must be a positive integer');
const t = await createTestDatabase({ migrate: false });
try {
  const migrator = createMigrator(t.db);
  const to = async (name: string): Promise<number> => {
    const started = performance.now();
    const r = await migrator.migrateTo(name);
    if (r.error !== undefined) throw r.error;
    return (performance.now() - started) / 1000;
  };
  await to('0013_bot_accounts');
  await sql`insert into game_events (game_id, seq, type, payload)
    select 'g' || (i / 20), i % 20 + 1, 'MoveAccepted',
      jsonb_build_object('ply', i % 20, 'usi', '7g7f', 'sfen', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2')
    from generate_series(0, ${EVENTS - 1}::int) i`.execute(t.db);
  await sql`vacuum analyze game_events`.execute(t.db);
  const up = await to('0014_game_events_partitioned');
  const down = await to('0013_bot_accounts');
  console.log(`${EVENTS} events: up (into 8 partitions) ${up.toFixed(1)} s, down ${down.toFixed(1)} s`);
} finally {
  await t.drop();
}
