/**
 * A move typed in USI: whether this user may play it now, and whether it parses and is legal,
 * with the sentence the page shows when not. Pure: the form's handler only shows the answer.
 */
import { type Move, moveIllegality, parseUsi } from '@shogi/rules';
import { isLive } from '../../shogi/cursor.js';
import { illegalTyped } from '../../words/refusals.js';
import { type GamePageState, latestGame, mySide, myTurn } from './state.js';

export type TypedMove = { readonly move: Move } | { readonly problem: string };

/** Null when there is no game yet to move in. */
export function readTypedMove(state: GamePageState, text: string): TypedMove | null {
  const game = latestGame(state);
  if (!game) return null;
  if (!state.me || !mySide(state)) return { problem: 'You are watching this game.' };
  if (!myTurn(state)) return { problem: 'Wait for your turn.' };
  if (!isLive(state.cursor)) return { problem: 'You are looking at an earlier position: End returns to the game.' };
  const m = parseUsi(text);
  if (m < 0) return { problem: `"${text}" is not a move: write it as 7g7f, P*5e or 8h2b+.` };
  const illegal = moveIllegality(game.position, m);
  if (illegal) return { problem: illegalTyped(text, illegal) };
  return { move: m };
}
