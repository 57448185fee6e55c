/**
 * A tournament's terms, fixed at creation: its format, clock, duration, start and entry
 * conditions. `validateTerms` is the one check of terms from outside; lichess's limits where it
 * has them (lila `TournamentForm`), named so where this server chose its own.
 */
import { type ByoyomiTimeControl, type FischerTimeControl, type TimeControl, validateTimeControl } from '@shogi/game';
import { estimatedSeconds } from '@shogi/ratings';
import { type TournamentRejection, tournamentRejection } from './rejections.js';

export const TOURNAMENT_FORMATS = ['arena', 'robin', 'swiss'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];

/** A tournament's games are real-time: byoyomi or Fischer. */
export type TournamentClock = ByoyomiTimeControl | FischerTimeControl;

export interface TournamentConditions {
  /** The least rating in the tournament's category a player needs to join. */
  readonly minRating?: number;
  /** The least number of rated games in that category. */
  readonly nbRatedGame?: number;
}

export interface TournamentTerms {
  readonly name: string;
  readonly format: TournamentFormat;
  readonly clock: TournamentClock;
  /** An arena's duration; a robin's window for all its games. */
  readonly minutes: number;
  /** ISO-8601. */
  readonly startsAt: string;
  /** Never true from a custom position (lishogi: a thematic position makes it casual). */
  readonly rated: boolean;
  /** The games' start (SFEN), when not the standard one. */
  readonly position: string | null;
  readonly berserkable: boolean;
  readonly streakable: boolean;
  readonly hasChat: boolean;
  readonly description: string | null;
  /** Set by the edge (a hash of the password): the aggregate only compares it. */
  readonly passwordHash: string | null;
  readonly conditions: TournamentConditions;
  readonly botsAllowed: boolean;
  readonly maxPlayers: number;
  /** A robin's: each pair meets once (`single`) or once with each colour (`double`). */
  readonly robinCycles: 1 | 2;
  /**
   * A robin's games played each at a time its two players agree within the window (lishogi's
   * Robin), not round by round. Absent: rounds.
   */
  readonly arranged?: boolean;
  /** A Swiss's (required for one, absent otherwise). */
  readonly swiss?: SwissTerms;
}

/** lichess's Swiss terms: its rounds, the pause between them, the pairs that may never meet. */
export interface SwissTerms {
  readonly nbRounds: number;
  /** Seconds from a round's last result to the next round; null: the organiser starts each round. */
  readonly roundIntervalSeconds: number | null;
  /** Pairs of player ids never to be paired together (lichess `forbiddenPairings`). */
  readonly forbiddenPairings: readonly (readonly [string, string])[];
}

export const TERMS_LIMITS = {
  /** lishogi's arena cap; lichess lets more in, and so can an operator. */
  maxPlayers: { default: 300, max: 20_000 },
  /** lichess allows 20 to 720 minutes; this server allows shorter events for scripted play. */
  minutes: { min: 1, max: 720 },
  /** lichess: a tournament starts at most a month ahead. */
  startAheadDays: 31,
  name: { min: 2, max: 30 },
  description: 600,
  /** A robin of more players than this is weeks of games; lishogi caps its robins lower. */
  robinPlayers: 64,
  /** lichess `SwissForm`: 3 to 100 rounds, an interval of at most a week. */
  swissRounds: { min: 3, max: 100 },
  swissIntervalSeconds: { max: 7 * 86_400 },
} as const;

/** lichess's estimate of one game's wall time: both players' estimated clock at 80 %, plus 15 s between games. */
export function estimatedGameSeconds(clock: TournamentClock): number {
  return 2 * (estimatedSeconds(clock) ?? 0) * 0.8 + 15;
}

/** lila `TournamentForm.sufficientDuration`: an arena lets one play at least three games. */
export const MIN_GAMES_PER_ARENA = 3;

const isClock = (tc: TimeControl): tc is TournamentClock => tc.kind === 'byoyomi' || tc.kind === 'fischer';

export function validateTerms(terms: TournamentTerms, now: Date): TournamentRejection | null {
  const L = TERMS_LIMITS;
  if (!isClock(terms.clock))
    return tournamentRejection('invalid_clock', 'a tournament needs a byoyomi or Fischer clock');
  const clock = validateTimeControl(terms.clock);
  if (!clock.ok) return tournamentRejection('invalid_clock', clock.error.message);
  const m = terms.minutes;
  if (!Number.isSafeInteger(m) || m < L.minutes.min || m > L.minutes.max)
    return tournamentRejection(
      'invalid_duration',
      `minutes must be a whole number from ${L.minutes.min} to ${L.minutes.max}`,
    );
  if (terms.format === 'arena' && m * 60 < MIN_GAMES_PER_ARENA * estimatedGameSeconds(terms.clock))
    return tournamentRejection(
      'invalid_duration',
      `${m} minutes is too short for ${MIN_GAMES_PER_ARENA} games at this clock: lengthen the tournament or shorten the clock`,
    );
  const startsAt = Date.parse(terms.startsAt);
  if (Number.isNaN(startsAt)) return tournamentRejection('invalid_start', 'startsAt is not a date');
  if (startsAt < now.getTime() - 1000) return tournamentRejection('invalid_start', 'the start is in the past');
  if (startsAt > now.getTime() + L.startAheadDays * 86_400_000)
    return tournamentRejection('invalid_start', `the start is more than ${L.startAheadDays} days ahead`);
  const name = terms.name.trim();
  if (name.length < L.name.min || name.length > L.name.max)
    return tournamentRejection('invalid_terms', `the name must be ${L.name.min} to ${L.name.max} characters`);
  if (terms.description !== null && terms.description.length > L.description)
    return tournamentRejection('invalid_terms', `the description must be at most ${L.description} characters`);
  const cap = terms.format === 'robin' ? L.robinPlayers : L.maxPlayers.max;
  if (!Number.isSafeInteger(terms.maxPlayers) || terms.maxPlayers < 2 || terms.maxPlayers > cap)
    return tournamentRejection('invalid_terms', `maxPlayers must be 2 to ${cap}`);
  if (terms.rated && terms.position !== null)
    return tournamentRejection('invalid_terms', 'a tournament from a custom position cannot be rated');
  const { minRating, nbRatedGame } = terms.conditions;
  if (minRating !== undefined && (!Number.isSafeInteger(minRating) || minRating < 0 || minRating > 4000))
    return tournamentRejection('invalid_terms', 'conditions.minRating.rating must be 0 to 4000');
  if (nbRatedGame !== undefined && (!Number.isSafeInteger(nbRatedGame) || nbRatedGame < 0 || nbRatedGame > 1000))
    return tournamentRejection('invalid_terms', 'conditions.nbRatedGame.nb must be 0 to 1000');
  if (terms.robinCycles !== 1 && terms.robinCycles !== 2)
    return tournamentRejection('invalid_terms', 'a robin is single (1) or double (2)');
  if (terms.arranged === true && terms.format !== 'robin')
    return tournamentRejection('invalid_terms', 'only a round-robin has arranged games');
  if (terms.format === 'swiss') return validateSwissTerms(terms.swiss);
  return null;
}

function validateSwissTerms(swiss: SwissTerms | undefined): TournamentRejection | null {
  const L = TERMS_LIMITS;
  if (swiss === undefined) return tournamentRejection('invalid_terms', 'a Swiss needs its number of rounds');
  const n = swiss.nbRounds;
  if (!Number.isSafeInteger(n) || n < L.swissRounds.min || n > L.swissRounds.max)
    return tournamentRejection('invalid_terms', `nbRounds must be ${L.swissRounds.min} to ${L.swissRounds.max}`);
  const gap = swiss.roundIntervalSeconds;
  if (gap !== null && (!Number.isSafeInteger(gap) || gap < 0 || gap > L.swissIntervalSeconds.max))
    return tournamentRejection(
      'invalid_terms',
      `roundInterval must be 0 to ${L.swissIntervalSeconds.max} seconds, or absent for rounds started by the organiser`,
    );
  for (const pair of swiss.forbiddenPairings)
    if (pair.length !== 2 || pair[0] === pair[1])
      return tournamentRejection('invalid_terms', 'a forbidden pairing names two different players');
  return null;
}

export const finishesAt = (terms: TournamentTerms): Date =>
  new Date(Date.parse(terms.startsAt) + terms.minutes * 60_000);
