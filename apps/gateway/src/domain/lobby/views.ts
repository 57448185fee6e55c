/** Stored seeks and challenges as the wire shows them, and the terms a game is started on. */
import type { ChallengeView, ColorPreference, SeekView, Side, TimeControl } from '@shogi/protocol';
import { type BotTitles, titled } from '../bot-titles.js';
import type { SeekTerms } from './pairing.js';
import type { StoredChallenge, StoredSeek } from './ports.js';

/** What a game is created on, from a seek or a challenge. */
export interface GameTerms {
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  readonly ruleset: string;
  readonly handicap: string | null;
  readonly sfen: string | null;
}

/** A pending challenge past its time reads as expired before the sweep marks it. */
export const statusOf = (row: StoredChallenge, at: Date): string =>
  row.status === 'pending' && row.expires_at <= at ? 'expired' : row.status;

export function termsOfSeek(row: StoredSeek): SeekTerms {
  return {
    id: row.id,
    playerId: row.player_id,
    rating: row.rating,
    timeControl: row.time_control as TimeControl,
    rated: row.rated,
    ruleset: row.ruleset,
    handicap: row.handicap,
    color: row.color as ColorPreference,
    ratingRange:
      row.rating_min === null || row.rating_max === null ? null : { min: row.rating_min, max: row.rating_max },
    createdAt: row.created_at,
  };
}

export const termsOfChallenge = (row: StoredChallenge): GameTerms => ({
  timeControl: row.time_control as TimeControl,
  rated: row.rated,
  ruleset: row.ruleset,
  handicap: row.handicap,
  sfen: row.sfen,
});

export function seekView(row: StoredSeek, at: Date): SeekView {
  const t = termsOfSeek(row);
  const status = row.status === 'open' && row.expires_at <= at ? 'expired' : (row.status as SeekView['status']);
  return {
    id: row.id,
    player: { id: row.player_id, name: row.player_name },
    rating: row.rating,
    timeControl: t.timeControl,
    rated: row.rated,
    ratingRange: t.ratingRange,
    color: t.color,
    ruleset: row.ruleset as SeekView['ruleset'],
    handicap: row.handicap as SeekView['handicap'],
    status,
    gameId: row.game_id,
    side: row.side as Side | null,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

export function challengeView(row: StoredChallenge, at: Date): ChallengeView {
  return {
    id: row.id,
    challenger: { id: row.challenger_id, name: row.challenger_name },
    opponent: { id: row.opponent_id, name: row.opponent_name },
    timeControl: row.time_control as TimeControl,
    rated: row.rated,
    color: row.color as ColorPreference,
    ruleset: row.ruleset as ChallengeView['ruleset'],
    handicap: row.handicap as ChallengeView['handicap'],
    sfen: row.sfen,
    status: statusOf(row, at) as ChallengeView['status'],
    gameId: row.game_id,
    rematchOf: row.rematch_of,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

/** The challenges with the BOT titles of their players, from one look-up for them all. */
export async function withChallengeTitles(
  titles: BotTitles,
  views: readonly ChallengeView[],
): Promise<ChallengeView[]> {
  const bots = await titles.bots(views.flatMap((v) => [v.challenger.id, v.opponent.id]));
  if (bots.size === 0) return [...views];
  return views.map((v) => ({ ...v, challenger: titled(v.challenger, bots), opponent: titled(v.opponent, bots) }));
}

/** One challenge with the BOT titles of its players. */
export const withChallengeTitle = async (titles: BotTitles, view: ChallengeView): Promise<ChallengeView> =>
  (await withChallengeTitles(titles, [view]))[0] ?? view;
