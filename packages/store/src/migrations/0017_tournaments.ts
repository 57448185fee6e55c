/**
 * Frozen. Tournaments on the event log: each tournament's stream in `tournament_events`, its
 * positions drawn from the log's one sequence (`game_events_global_position_seq`) so that the
 * games' and the tournaments' events share one global order; and the projections rebuilt from
 * those streams: `tournaments`, `tournament_players` (standings), `tournament_pairings` (a
 * tournament's games, marking each game with its tournament).
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table tournament_events (
      tournament_id text not null,
      seq integer not null check (seq > 0),
      type text not null,
      payload jsonb not null,
      recorded_at timestamptz not null default now(),
      global_position bigint not null default nextval('game_events_global_position_seq'),
      primary key (tournament_id, seq)
    )`.execute(db);
  await sql`create index tournament_events_global_position_idx on tournament_events (global_position)`.execute(db);
  await sql`
    create table tournaments (
      id text primary key,
      name text not null,
      format text not null,
      status text not null check (status in ('created', 'started', 'finished')),
      created_by text not null,
      created_by_name text not null,
      starts_at timestamptz not null,
      finishes_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz,
      terminated boolean not null default false,
      rated boolean not null,
      nb_players integer not null,
      winner_id text,
      terms jsonb not null,
      last_seq integer not null
    )`.execute(db);
  await sql`create index tournaments_status_starts_idx on tournaments (status, starts_at)`.execute(db);
  await sql`
    create table tournament_players (
      tournament_id text not null,
      player_id text not null,
      name text not null,
      bot boolean not null,
      rating integer not null,
      paused boolean not null,
      rank integer not null,
      score integer not null,
      performance integer not null,
      fire boolean not null,
      sheet text not null,
      wins integer not null,
      draws integer not null,
      losses integer not null,
      primary key (tournament_id, player_id)
    )`.execute(db);
  await sql`create index tournament_players_rank_idx on tournament_players (tournament_id, rank)`.execute(db);
  await sql`
    create table tournament_pairings (
      game_id text primary key,
      tournament_id text not null,
      round integer,
      sente_id text not null,
      gote_id text not null,
      status text not null check (status in ('playing', 'finished')),
      winner text check (winner in ('sente', 'gote')),
      plies integer,
      berserk_sente boolean not null,
      berserk_gote boolean not null,
      forfeit boolean not null,
      paired_at timestamptz not null,
      finished_at timestamptz
    )`.execute(db);
  await sql`create index tournament_pairings_tournament_idx on tournament_pairings (tournament_id, paired_at)`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['tournament_pairings', 'tournament_players', 'tournaments', 'tournament_events'])
    await db.schema.dropTable(t).execute();
}
