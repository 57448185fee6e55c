/**
 * lichess's parameters of `POST /api/tournament` (plus lishogi's `clockByoyomi` and `periods`,
 * and `format`) read into a tournament's terms, pure. A form body gives every value as a string;
 * a JSON body may give numbers and booleans, and the conditions flat
 * (`"conditions.minRating.rating": 1500`) or nested. The aggregate checks the terms' sense
 * (validateTerms); this only reads them.
 */
import { createHash } from 'node:crypto';
import type { ErrorCode } from '@shogi/protocol';
import { TOURNAMENT_FORMATS, type TournamentFormat, type TournamentTerms } from '@shogi/tournament';

type Scalar = string | number | boolean;
export type TournamentParams = Readonly<Record<string, Scalar | Readonly<Record<string, unknown>> | undefined>>;

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: ErrorCode; readonly detail: string };

class Refusal extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  constructor(code: ErrorCode, detail: string) {
    super(detail);
    this.code = code;
    this.detail = detail;
  }
}

/** A value flat (`a.b.c`) or nested (`{a: {b: {c}}}`). */
function field(params: TournamentParams, path: string): Scalar | undefined {
  const flat = params[path];
  if (flat !== undefined && typeof flat !== 'object') return flat;
  let v: unknown = params;
  for (const part of path.split('.'))
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
}

function number(params: TournamentParams, name: string): number | undefined {
  const v = field(params, name);
  if (v === undefined || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw new Refusal('BAD_REQUEST', `${name} must be a number`);
  return n;
}

function flag(params: TournamentParams, name: string, byDefault: boolean): boolean {
  const v = field(params, name);
  if (v === undefined || v === '') return byDefault;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new Refusal('BAD_REQUEST', `${name} must be true or false`);
}

function text(params: TournamentParams, name: string): string | undefined {
  const v = field(params, name);
  return v === undefined || v === '' ? undefined : String(v);
}

/** The stored form of a tournament's password: the aggregate compares it, never the password. */
export const passwordHashOf = (tournamentId: string, password: string): string =>
  createHash('sha256').update(`${tournamentId}:${password}`).digest('hex');

/**
 * lichess's defaults: a 3+2 arena of 45 minutes starting in 5 minutes, rated, berserk and streaks
 * on. `clockTime` is in minutes (0.25 for 15 seconds), `clockIncrement` and `clockByoyomi` in
 * seconds; a byoyomi makes a byoyomi clock (lishogi's), else Fischer.
 */
export function parseTournamentParams(
  params: TournamentParams,
  tournamentId: string,
  creatorName: string,
  now: Date,
): Parsed<TournamentTerms> {
  try {
    const clockTime = number(params, 'clockTime') ?? 3;
    const increment = number(params, 'clockIncrement') ?? (number(params, 'clockByoyomi') === undefined ? 2 : 0);
    const byoyomi = number(params, 'clockByoyomi') ?? 0;
    const mainSeconds = Math.round(clockTime * 60);
    if (byoyomi > 0 && increment > 0)
      throw new Refusal('INVALID_TIME_CONTROL', 'give clockIncrement or clockByoyomi, not both');
    const clock: TournamentTerms['clock'] =
      byoyomi > 0
        ? { kind: 'byoyomi', mainSeconds, byoyomiSeconds: byoyomi, periods: number(params, 'periods') ?? 1 }
        : { kind: 'fischer', mainSeconds, incrementSeconds: increment };
    const startDate = number(params, 'startDate');
    const waitMinutes = number(params, 'waitMinutes') ?? 5;
    const startsAt = startDate !== undefined ? new Date(startDate) : new Date(now.getTime() + waitMinutes * 60_000);
    if (Number.isNaN(startsAt.getTime())) throw new Refusal('INVALID_TOURNAMENT_START', 'startDate is not a date');
    const format = text(params, 'format') ?? 'arena';
    if (!(TOURNAMENT_FORMATS as readonly string[]).includes(format))
      throw new Refusal('BAD_REQUEST', `format must be ${TOURNAMENT_FORMATS.join(' or ')}`);
    const position = text(params, 'position') ?? null;
    const password = text(params, 'password');
    const minRating = number(params, 'conditions.minRating.rating');
    const nbRatedGame = number(params, 'conditions.nbRatedGame.nb');
    const robin = format === 'robin';
    return {
      ok: true,
      value: {
        name: text(params, 'name') ?? `${creatorName}'s ${robin ? 'round-robin' : 'arena'}`,
        format: format as TournamentFormat,
        clock,
        minutes: number(params, 'minutes') ?? 45,
        startsAt: startsAt.toISOString(),
        // lishogi: a custom position makes the tournament casual
        rated: position === null && flag(params, 'rated', true),
        position,
        berserkable: !robin && flag(params, 'berserkable', true),
        streakable: !robin && flag(params, 'streakable', true),
        hasChat: flag(params, 'hasChat', true),
        description: text(params, 'description') ?? null,
        passwordHash: password === undefined ? null : passwordHashOf(tournamentId, password),
        conditions: {
          ...(minRating === undefined ? {} : { minRating }),
          ...(nbRatedGame === undefined ? {} : { nbRatedGame }),
        },
        botsAllowed: flag(params, 'botsAllowed', false),
        maxPlayers: number(params, 'maxPlayers') ?? (robin ? 16 : 300),
        robinCycles: flag(params, 'double', false) ? 2 : 1,
        ...(flag(params, 'arranged', false) ? { arranged: true } : {}),
      },
    };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, code: e.code, detail: e.detail };
    throw e;
  }
}
