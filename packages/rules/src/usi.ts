/** USI move notation: `7g7f`, `8h2b+`, `P*5e`. Syntax only; legality is legality.ts. */
import { boardMove, dropMove, isDrop, isPromotion, type Move, moveFrom, moveTo } from './position.js';
import { squareName } from './squares.js';
import { BISHOP, GOLD, KNIGHT, LANCE, PAWN, ROOK, SILVER } from './types.js';

const DROP_LETTERS: Record<string, number> = { P: PAWN, L: LANCE, N: KNIGHT, S: SILVER, G: GOLD, B: BISHOP, R: ROOK };
const TYPE_LETTERS = ' PLNSBRGK';

function square(file: number, rank: number): number {
  const f = file - 48;
  const r = rank - 97;
  if (f < 1 || f > 9 || r < 0 || r > 8) return -1;
  return (r + 2) * 10 + (9 - f);
}

/** Parses USI move text; returns -1 when it is not a well-formed USI move. */
export function parseUsi(text: string): Move {
  const len = text.length;
  if (len !== 4 && len !== 5) return -1;
  if (text.charCodeAt(1) === 42 /* '*' */) {
    if (len !== 4) return -1;
    const type = DROP_LETTERS[text.charAt(0)];
    const to = square(text.charCodeAt(2), text.charCodeAt(3));
    return type === undefined || to < 0 ? -1 : dropMove(type, to);
  }
  const from = square(text.charCodeAt(0), text.charCodeAt(1));
  const to = square(text.charCodeAt(2), text.charCodeAt(3));
  if (from < 0 || to < 0 || from === to) return -1;
  if (len === 5 && text.charCodeAt(4) !== 43 /* '+' */) return -1;
  return boardMove(from, to, len === 5);
}

export function formatUsi(m: Move): string {
  if (isDrop(m)) return `${TYPE_LETTERS[moveFrom(m)]}*${squareName(moveTo(m))}`;
  return `${squareName(moveFrom(m))}${squareName(moveTo(m))}${isPromotion(m) ? '+' : ''}`;
}
