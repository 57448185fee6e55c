/**
 * Migrations with kysely's Migrator. The provider lists the migration modules statically,
 * so the same code runs from src (tsx, vitest) and from dist (node) without a file scan.
 */
import { type Kysely, type Migration, type MigrationResultSet, Migrator } from 'kysely';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_games_hot_updates.js';
import * as m0003 from './migrations/0003_games_pending_seq.js';
import * as m0004 from './migrations/0004_finished_games.js';
import * as m0005 from './migrations/0005_stats_rollups.js';
import * as m0006 from './migrations/0006_opening_positions.js';
import * as m0007 from './migrations/0007_games_clock.js';
import * as m0008 from './migrations/0008_accounts.js';
import * as m0009 from './migrations/0009_ratings.js';
import * as m0010 from './migrations/0010_lobby.js';
import * as m0011 from './migrations/0011_seeks_address.js';
import * as m0012 from './migrations/0012_game_analyses.js';
import * as m0013 from './migrations/0013_bot_accounts.js';
import * as m0014 from './migrations/0014_game_events_partitioned.js';
import * as m0015 from './migrations/0015_imported_source.js';
import * as m0016 from './migrations/0016_takeback_preference.js';
import * as m0017 from './migrations/0017_tournaments.js';
import * as m0018 from './migrations/0018_fair_play.js';
import * as m0019 from './migrations/0019_tournament_standings_keys.js';
import * as m0020 from './migrations/0020_explorer.js';
import * as m0021 from './migrations/0021_account_addresses.js';

const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_games_hot_updates': m0002,
  '0003_games_pending_seq': m0003,
  '0004_finished_games': m0004,
  '0005_stats_rollups': m0005,
  '0006_opening_positions': m0006,
  '0007_games_clock': m0007,
  '0010_lobby': m0010,
  '0011_seeks_address': m0011,
  '0012_game_analyses': m0012,
  '0013_bot_accounts': m0013,
  '0014_game_events_partitioned': m0014,
  '0015_imported_source': m0015,
  '0016_takeback_preference': m0016,
  '0017_tournaments': m0017,
  '0018_fair_play': m0018,
  '0019_tournament_standings_keys': m0019,
  '0020_explorer': m0020,
  '0021_account_addresses': m0021,
  '0009_ratings': m0009,
  '0008_accounts': m0008,
};

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export function createMigrator(db: Kysely<any>): Migrator {
  // migrations are independent tables written on parallel branches of work: a database
  // that ran a later-numbered one first still takes the earlier one when it lands
  return new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS }, allowUnorderedMigrations: true });
}

/** Runs every pending migration; throws when one fails (the result set names it). */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  const result = await createMigrator(db).migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}
