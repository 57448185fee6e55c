/**
 * The ply rule (lishogi's and lichess's): a game that ends before each side has made a move
 * is aborted, whatever ended it (a resignation, a flag, an illegal move, a wrong impasse
 * declaration, a move limit of one). Nobody won or drew it, so nothing is rated: otherwise two
 * accounts of one person could trade rating points by starting rated games and ending them at
 * once (a draw between unequal ratings moves them too).
 *
 * The rule acts when the ending is decided (decide.ts runs every decision through it), so the
 * events already logged keep their endings and their ratings on any replay.
 */
import type { ColorName } from '@shogi/rules';
import type { GameEnded, GameEvent } from './events.js';
import type { GameState } from './state.js';

/** Accepted moves after which each side has moved once (a handicap's giver moves first: still two). */
export const PLIES_BEFORE_RESULT = 2;

/** Whether a game at `ply` accepted moves may still end with a winner only by its position. */
export const beforeBothMoved = (ply: number): boolean => ply < PLIES_BEFORE_RESULT;

/**
 * The endings the position itself decides. A flag may come in the same decision as the move
 * before it (a clock check gives a pending first move its verdict, then flags the other side):
 * it follows that move, but the clock decided it, not the position.
 */
const BY_POSITION: ReadonlySet<GameEnded['data']['reason']> = new Set([
  'checkmate',
  'stalemate',
  'perpetual_check',
  'impasse',
]);

/**
 * The decision's events with every ending before both sides have moved made an abort. An ending the position decided (a mate by the move accepted just before it,
 * a valid impasse declaration: possible so early only from a set-up position, which is never
 * rated) stays as the rules said. The
 * side whose request ended it (a Resigned or ImpasseDeclared among the events) is the
 * abort's `abortedBy`.
 */
export function abortBeforeBothMoved(state: GameState, events: GameEvent[]): GameEvent[] {
  // a tournament's game has no abort: lishogi scores its `NoStart` as a loss of the one who did not move
  if (state.info?.tournamentId != null) return events;
  if (!beforeBothMoved(state.ply) || !events.some((e) => e.type === 'GameEnded' && e.data.reason !== 'abort'))
    return events;
  let ply = state.ply;
  let byPosition = false;
  let requestedBy: ColorName | null = null;
  return events.map((e) => {
    if (e.type === 'MoveAccepted') {
      ply = e.data.ply;
      byPosition = true;
      return e;
    }
    if (e.type === 'Resigned' || e.type === 'ImpasseDeclared') requestedBy = e.data.color;
    if (e.type !== 'GameEnded') {
      // a valid declaration is the position's verdict, as a mate is; a wrong one is the declarer's foul
      byPosition = e.type === 'ImpasseDeclared' && e.data.valid;
      return e;
    }
    if (e.data.reason === 'abort' || (byPosition && BY_POSITION.has(e.data.reason)) || !beforeBothMoved(ply)) return e;
    return aborted(e, requestedBy);
  });
}

function aborted(e: GameEnded, requestedBy: ColorName | null): GameEnded {
  const { idempotencyKey } = e.data;
  return {
    type: 'GameEnded',
    data: {
      winner: null,
      reason: 'abort',
      at: e.data.at,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      ...(requestedBy === null ? {} : { abortedBy: requestedBy }),
    },
  };
}
