/**
 * Bot accounts in the lobby: they play through challenges only (lishogi's rule: pools are
 * off-limits to bots), so seeks and games against the house bots refuse them. Under the
 * player's lock the refusal is the rule, since the upgrade to a bot account takes the same
 * lock (@shogi/store's upgradeToBot); without it, an early answer.
 */
import { ApiError } from '../api-error.js';
import type { BotReads } from './ports.js';

export async function refuseBot(reads: BotReads, playerId: string): Promise<void> {
  if (await reads.isBotAccount(playerId)) throw new ApiError('BOT_ACCOUNT');
}
