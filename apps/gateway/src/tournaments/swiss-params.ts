/**
 * lichess's parameters of `POST /api/swiss/new/{teamId}` (here `POST /api/swiss`): `clock.limit`
 * and `clock.increment` in seconds, lishogi's `clock.byoyomi` and `clock.periods`, `nbRounds`,
 * `startsAt` (ms since the epoch), `roundInterval` (seconds; lichess's 99999999: the organiser
 * starts each round; absent: `DEFAULT_ROUND_INTERVAL`), `forbiddenPairings` (one pair of usernames a line). Read into the
 * same terms as an arena's, through `parseTournamentParams`, pure.
 */
import type { TournamentTerms } from '@shogi/tournament';
import { type Parsed, parseTournamentParams, type TournamentParams } from './params.js';

/** lichess's "manual" interval: the organiser schedules each round. */
export const MANUAL_ROUND_INTERVAL = 99_999_999;

/** lichess picks an interval from the clock when none is given; a minute here (this server's choice). */
export const DEFAULT_ROUND_INTERVAL = 60;

/** lichess marks a player who did not move in a Swiss game absent at once: one forfeit withdraws. */
export const DEFAULT_FORFEITS_TO_WITHDRAW = 1;

/** lichess's default of 5 minutes before the start is this server's too. */
const DEFAULT_WAIT_MS = 5 * 60_000;

const scalar = (params: TournamentParams, name: string): string | undefined => {
  const flat = params[name];
  if (flat !== undefined && typeof flat !== 'object') return String(flat);
  const [head, tail] = name.split('.');
  const nested = head === undefined ? undefined : params[head];
  if (tail !== undefined && typeof nested === 'object' && nested !== null) {
    const v = (nested as Record<string, unknown>)[tail];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  }
  return undefined;
};

export function parseSwissParams(
  params: TournamentParams,
  tournamentId: string,
  creatorName: string,
  now: Date,
): Parsed<TournamentTerms> {
  const num = (name: string): number | null => {
    const v = scalar(params, name);
    return v === undefined || v === '' ? null : Number(v);
  };
  const limit = num('clock.limit');
  const nbRounds = num('nbRounds');
  for (const [name, v] of [
    ['clock.limit', limit],
    ['clock.increment', num('clock.increment')],
    ['clock.byoyomi', num('clock.byoyomi')],
    ['clock.periods', num('clock.periods')],
    ['nbRounds', nbRounds],
    ['roundInterval', num('roundInterval')],
    ['startsAt', num('startsAt')],
    ['forfeitsToWithdraw', num('forfeitsToWithdraw')],
  ] as const)
    if (v !== null && !Number.isFinite(v))
      return { ok: false, code: 'BAD_REQUEST', detail: `${name} must be a number` };
  if (limit === null) return { ok: false, code: 'INVALID_TIME_CONTROL', detail: 'clock.limit (seconds) is required' };
  if (nbRounds === null) return { ok: false, code: 'BAD_REQUEST', detail: 'nbRounds is required' };
  const increment = num('clock.increment');
  const byoyomi = num('clock.byoyomi');
  const periods = num('clock.periods');
  const interval = num('roundInterval');
  const forbidden = (scalar(params, 'forbiddenPairings') ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => line.split(/\s+/));
  if (forbidden.some((pair) => pair.length !== 2))
    return { ok: false, code: 'BAD_REQUEST', detail: 'forbiddenPairings: two usernames a line' };
  const parsed = parseTournamentParams(
    {
      name: scalar(params, 'name') ?? `${creatorName}'s Swiss`,
      clockTime: limit / 60,
      ...(increment === null ? {} : { clockIncrement: increment }),
      ...(byoyomi === null ? {} : { clockByoyomi: byoyomi }),
      ...(periods === null ? {} : { periods }),
      // a Swiss has rounds, not a window: the longest one the terms allow, never read
      minutes: 720,
      startDate: num('startsAt') ?? now.getTime() + DEFAULT_WAIT_MS,
      rated: scalar(params, 'rated') ?? 'true',
      ...(scalar(params, 'description') === undefined ? {} : { description: scalar(params, 'description') }),
      ...(scalar(params, 'password') === undefined ? {} : { password: scalar(params, 'password') }),
      ...(scalar(params, 'conditions.minRating.rating') === undefined
        ? {}
        : { 'conditions.minRating.rating': scalar(params, 'conditions.minRating.rating') }),
      ...(scalar(params, 'conditions.nbRatedGame.nb') === undefined
        ? {}
        : { 'conditions.nbRatedGame.nb': scalar(params, 'conditions.nbRatedGame.nb') }),
      berserkable: false,
      streakable: false,
      format: 'arena',
    },
    tournamentId,
    creatorName,
    now,
  );
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    value: {
      ...parsed.value,
      format: 'swiss',
      swiss: {
        nbRounds,
        roundIntervalSeconds:
          interval === null ? DEFAULT_ROUND_INTERVAL : interval >= MANUAL_ROUND_INTERVAL ? null : interval,
        forbiddenPairings: forbidden.map(([a, b]) => [a!, b!] as const),
        forfeitsToWithdraw: num('forfeitsToWithdraw') ?? DEFAULT_FORFEITS_TO_WITHDRAW,
      },
    },
  };
}
