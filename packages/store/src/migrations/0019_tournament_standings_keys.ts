/**
 * Frozen. Tournament standings ranked when read: `tournament_players` keeps each player's
 * ranking keys (`score`, `tiebreak`: the performance, or the rating before any counted game;
 * `entered`: the stream version that put the player in, the join order) instead of a stored
 * `rank`, so an event rewrites the rows of the players it touches and no other. The index
 * serves a page of the standings in rank order. Existing rows get their keys from their own
 * columns and the stream's events.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table tournament_players add column tiebreak integer not null default 0,
    add column entered integer not null default 0`.execute(db);
  await sql`update tournament_players set tiebreak = case when performance > 0 then performance else rating end`.execute(
    db,
  );
  // the first join after the player's last withdrawal (a rejoin after a pause keeps its place)
  await sql`
    update tournament_players p set entered = coalesce((
      select min(j.seq) from tournament_events j
      where j.tournament_id = p.tournament_id and j.type = 'PlayerJoined'
        and j.payload->'player'->>'id' = p.player_id
        and j.seq > coalesce((
          select max(w.seq) from tournament_events w
          where w.tournament_id = p.tournament_id and w.type = 'PlayerWithdrew'
            and w.payload->>'playerId' = p.player_id), 0)), 0)`.execute(db);
  await sql`drop index tournament_players_rank_idx`.execute(db);
  await sql`alter table tournament_players drop column rank`.execute(db);
  await sql`create index tournament_players_standing_idx
    on tournament_players (tournament_id, score desc, tiebreak desc, entered)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and never see the app schema
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index tournament_players_standing_idx`.execute(db);
  await sql`alter table tournament_players add column rank integer not null default 0`.execute(db);
  await sql`
    update tournament_players p set rank = r.rank from (
      select tournament_id, player_id,
        row_number() over (partition by tournament_id order by score desc, tiebreak desc, entered) as rank
      from tournament_players) r
    where r.tournament_id = p.tournament_id and r.player_id = p.player_id`.execute(db);
  await sql`alter table tournament_players drop column tiebreak, drop column entered`.execute(db);
  await sql`create index tournament_players_rank_idx on tournament_players (tournament_id, rank)`.execute(db);
}
