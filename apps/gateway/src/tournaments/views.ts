/**
 * Tournaments in lichess's shapes (lichess-org/api `arena-tournaments`): a tournament `T`, its
 * standings page, its results lines. Pure, from the projection's rows.
 */
import { categoryOf } from '@shogi/ratings';
import type { TournamentTerms } from '@shogi/tournament';

/** lichess's numeric statuses. */
const STATUS = { created: 10, started: 20, finished: 30 } as const;

export interface TournamentRowView {
  readonly id: string;
  readonly name: string;
  readonly format: string;
  readonly status: 'created' | 'started' | 'finished';
  readonly created_by: string;
  readonly created_by_name: string;
  readonly starts_at: Date;
  readonly finishes_at: Date;
  readonly terminated: boolean;
  readonly rated: boolean;
  readonly nb_players: number;
  readonly winner_id: string | null;
  readonly terms: unknown;
}

export interface PlayerRowView {
  readonly player_id: string;
  readonly name: string;
  readonly bot: boolean;
  readonly rating: number;
  readonly paused: boolean;
  readonly rank: number;
  readonly score: number;
  readonly performance: number;
  readonly fire: boolean;
  readonly sheet: string;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

const termsOf = (row: TournamentRowView): TournamentTerms =>
  (typeof row.terms === 'string' ? JSON.parse(row.terms) : row.terms) as TournamentTerms;

export function tournamentView(row: TournamentRowView, now: Date) {
  const terms = termsOf(row);
  const clock = terms.clock;
  const category = categoryOf(clock);
  const startsAt = row.starts_at.getTime();
  const finishesAt = row.finishes_at.getTime();
  return {
    id: row.id,
    createdBy: row.created_by_name,
    system: row.format,
    fullName: terms.name,
    minutes: terms.minutes,
    clock: {
      limit: clock.mainSeconds,
      increment: clock.kind === 'fischer' ? clock.incrementSeconds : 0,
      byoyomi: clock.kind === 'byoyomi' ? clock.byoyomiSeconds : 0,
      periods: clock.kind === 'byoyomi' ? clock.periods : 0,
    },
    rated: row.rated,
    berserkable: terms.berserkable,
    streakable: terms.streakable,
    hasChat: terms.hasChat,
    botsAllowed: terms.botsAllowed,
    ...(terms.format === 'robin' ? { double: terms.robinCycles === 2 } : {}),
    ...(terms.arranged === true ? { arranged: true } : {}),
    ...(terms.description === null ? {} : { description: terms.description }),
    ...(terms.position === null ? {} : { position: { sfen: terms.position } }),
    private: terms.passwordHash !== null,
    nbPlayers: row.nb_players,
    maxPlayers: terms.maxPlayers,
    startsAt,
    finishesAt,
    status: STATUS[row.status],
    isStarted: row.status === 'started',
    isFinished: row.status === 'finished',
    ...(row.terminated ? { terminated: true } : {}),
    perf: { key: category ?? 'unlimited', name: category ?? 'unlimited' },
    secondsToStart: Math.max(0, Math.round((startsAt - now.getTime()) / 1000)),
    ...(row.status === 'started'
      ? { secondsToFinish: Math.max(0, Math.round((finishesAt - now.getTime()) / 1000)) }
      : {}),
    variant: 'standard',
    ...(row.winner_id === null ? {} : { winner: { id: row.winner_id } }),
  };
}

export const standingPlayer = (p: PlayerRowView) => ({
  id: p.player_id,
  name: p.name,
  ...(p.bot ? { title: 'BOT' } : {}),
  rank: p.rank,
  rating: p.rating,
  score: p.score,
  performance: p.performance,
  ...(p.paused ? { withdraw: true } : {}),
  sheet: { scores: p.sheet, ...(p.fire ? { fire: true } : {}) },
  nb: { game: p.wins + p.draws + p.losses, win: p.wins, draw: p.draws, loss: p.losses },
});

/** lichess's results line: `{rank, score, rating, username, title?, performance, sheet}`. */
export const resultLine = (p: PlayerRowView) => ({
  rank: p.rank,
  score: p.score,
  rating: p.rating,
  username: p.name,
  id: p.player_id,
  ...(p.bot ? { title: 'BOT' } : {}),
  performance: p.performance,
  sheet: { scores: p.sheet, ...(p.fire ? { fire: true } : {}) },
});
