/**
 * An explorer request's words read into values, with the reason for each refusal: the start
 * (an SFEN, else the even start), the `play` line (each move legal in turn), speeds, rating
 * groups, the months, and the list sizes. Pure, so the routes only map a refusal to a 400.
 */
import { ki2Move, moveIllegality, type Position, parseSfen, parseUsi, START_SFEN } from '@shogi/rules';
import { keyOf, type PositionKey } from './keys.js';
import { moveCode } from './moves.js';
import type { ExplorerFilter, Limits } from './query.js';
import { isSpeed, parseMonth, RATING_BANDS, speedIndex } from './vocab.js';

export interface ExplorerQueryText {
  readonly sfen?: string | undefined;
  readonly play?: string | undefined;
  readonly speeds?: string | undefined;
  readonly ratings?: string | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly moves?: string | undefined;
  readonly topGames?: string | undefined;
  readonly recentGames?: string | undefined;
}

export interface ExplorerRequest {
  /** the position asked about, after `play` */
  readonly position: Position;
  readonly key: PositionKey;
  /** the keys from the start through `play` to the position (for the opening's name) */
  readonly path: readonly PositionKey[];
  /** the destination of play's last move (a square index), -1 with none: KI2's 同 */
  readonly lastTo: number;
  readonly filter: ExplorerFilter;
  readonly limits: Limits;
}

export type Refusal = { readonly ok: false; readonly code: 'INVALID_SFEN' | 'BAD_REQUEST'; readonly reason: string };
export type Parsed = { readonly ok: true; readonly value: ExplorerRequest } | Refusal;

/** lichess's defaults and caps: 12 moves (at most 50 here), 4 top and 4 recent games (at most 15). */
export const LIMITS = { moves: [12, 50], topGames: [4, 15], recentGames: [4, 15] } as const;

const refuse = (reason: string, code: Refusal['code'] = 'BAD_REQUEST'): Refusal => ({ ok: false, code, reason });

function count(text: string | undefined, name: keyof typeof LIMITS): number | Refusal {
  const [fallback, max] = LIMITS[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,3}$/.test(text) || Number(text) > max) return refuse(`${name} must be a whole number from 0 to ${max}`);
  return Number(text);
}

const list = (text: string | undefined): string[] | null =>
  text === undefined || text === '' ? null : text.split(',').map((s) => s.trim());

export function parseExplorerRequest(q: ExplorerQueryText): Parsed {
  const start = parseSfen(q.sfen === undefined || q.sfen === '' ? START_SFEN : q.sfen);
  if (!start.ok) return refuse(`sfen: ${start.error.message}`, 'INVALID_SFEN');
  const position = start.value;
  const path: PositionKey[] = [keyOf(position)];
  let lastTo = -1;
  const play = list(q.play) ?? [];
  if (play.length > 200) return refuse('play: at most 200 moves');
  for (const [i, usi] of play.entries()) {
    const m = parseUsi(usi);
    if (m < 0) return refuse(`play: move ${i + 1}, ${JSON.stringify(usi)}, is not a USI move`);
    const illegal = moveIllegality(position, m);
    if (illegal !== null) return refuse(`play: move ${i + 1}, ${usi}, is illegal: ${illegal}`);
    position.makeMove(m);
    path.push(keyOf(position));
    lastTo = (moveCode(usi) >> 1) % 81;
  }
  const speedWords = list(q.speeds);
  const unknownSpeed = speedWords?.find((s) => !isSpeed(s));
  if (unknownSpeed !== undefined) return refuse(`speeds: unknown speed ${JSON.stringify(unknownSpeed)}`);
  const bandWords = list(q.ratings);
  const unknownBand = bandWords?.find((b) => !(RATING_BANDS as readonly number[]).includes(Number(b)) || b === '');
  if (unknownBand !== undefined)
    return refuse(`ratings: ${JSON.stringify(unknownBand)} is no rating group (${RATING_BANDS.join(', ')})`);
  const since = q.since === undefined || q.since === '' ? null : parseMonth(q.since);
  if (since === null && q.since) return refuse('since: not a month (YYYY-MM)');
  const until = q.until === undefined || q.until === '' ? null : parseMonth(q.until);
  if (until === null && q.until) return refuse('until: not a month (YYYY-MM)');
  if (since !== null && until !== null && since > until) return refuse('since is after until');
  const moves = count(q.moves, 'moves');
  const topGames = count(q.topGames, 'topGames');
  const recentGames = count(q.recentGames, 'recentGames');
  for (const c of [moves, topGames, recentGames]) if (typeof c !== 'number') return c;
  return {
    ok: true,
    value: {
      position,
      key: keyOf(position),
      path,
      lastTo,
      filter: {
        speeds: speedWords === null ? null : new Set(speedWords.map((s) => speedIndex(s as never))),
        bands:
          bandWords === null
            ? null
            : new Set(bandWords.map((b) => (RATING_BANDS as readonly number[]).indexOf(Number(b)))),
        since,
        until,
      },
      limits: { moves: moves as number, topGames: topGames as number, recentGames: recentGames as number },
    },
  };
}

/** A move as players write it from the request's position (KI2: ▲７六歩), or null when it cannot be. */
export function notationOf(request: ExplorerRequest, usi: string): string | null {
  const setup = request.position.toSetup();
  return ki2Move({ squares: setup.squares, side: setup.side }, usi, request.lastTo);
}
