/**
 * Which players are bot accounts: lishogi's Bot API is for them alone, its Board API for
 * everyone else, and a bot shows the title `BOT`. Accounts carry no bot flag yet (it comes
 * with the account upgrade, POST /api/bot/account/upgrade): until then no player is a bot,
 * and this is the one place that learns it when the flag exists.
 */
import type { Db } from '@shogi/store';

/** The bot accounts among `playerIds`. */
export async function botsAmong(_db: Db, _playerIds: readonly string[]): Promise<ReadonlySet<string>> {
  return new Set();
}
