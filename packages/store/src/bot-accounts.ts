/**
 * Bot accounts (migration 0013): an account becomes a bot for good, and only while it has
 * played no game. The upgrade holds the player's lobby lock (lobby/players.ts), which every
 * seek pairing and every real-time game start takes before it looks at the player, and
 * withdraws the player's open seeks in the same transaction: a seek posted before the upgrade
 * never pairs the bot afterwards.
 */
import { type Kysely, sql } from 'kysely';
import { lockPlayers } from './lobby/players.js';
import { lobbyDb } from './lobby/schema.js';
import { withdrawOpenSeeks } from './lobby/seeks.js';
import type { Database, Db } from './schema.js';

/** What an upgrade did: `already` for a bot account, whatever it has played since. */
export type BotUpgrade = 'upgraded' | 'already' | 'has-games' | 'no-account';

export async function upgradeToBot(db: Db, playerId: string, now: Date): Promise<BotUpgrade> {
  return lobbyDb(db)
    .transaction()
    .execute(async (trx) => {
      await lockPlayers(trx, [playerId]);
      const account = await trx
        .selectFrom('accounts')
        .select('bot')
        .where('player_id', '=', playerId)
        .forUpdate()
        .executeTakeFirst();
      if (account === undefined) return 'no-account';
      if (account.bot) return 'already';
      // the games table keeps ended games too: any row is a game played (or being played)
      const played = await trx
        .selectFrom('games')
        .select('id')
        .where((eb) => eb.or([eb('sente_id', '=', playerId), eb('gote_id', '=', playerId)]))
        .limit(1)
        .executeTakeFirst();
      if (played !== undefined) return 'has-games';
      await trx.updateTable('accounts').set({ bot: true }).where('player_id', '=', playerId).execute();
      await withdrawOpenSeeks(trx, [playerId], now);
      return 'upgraded';
    });
}

/** Whether the player is a bot account (false for guests and for unknown ids); on any pool or transaction. */
export async function isBotAccount<DB extends Database>(db: Kysely<DB>, playerId: string): Promise<boolean> {
  const { rows } = await sql<{ bot: boolean }>`select bot from accounts where player_id = ${playerId}`.execute(db);
  return rows[0]?.bot === true;
}

/** The bot accounts among the ids, in one query (for lists that show several players). */
export async function botAccountsAmong<DB extends Database>(
  db: Kysely<DB>,
  playerIds: readonly string[],
): Promise<string[]> {
  if (playerIds.length === 0) return [];
  const { rows } = await sql<{ player_id: string }>`
    select player_id from accounts where bot and player_id = any(${[...playerIds]}::text[])`.execute(db);
  return rows.map((r) => r.player_id);
}
