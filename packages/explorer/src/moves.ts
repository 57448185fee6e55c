/**
 * USI moves as small integers for the packed index: ((from * 81) + to) * 2 + promotion, where
 * a square is its SFEN index (rank a..i, file 9..1: 0..80) and a drop's `from` is 80 + the
 * piece (P L N S G B R: 81..87). Codes fit in 14 bits, two bytes of varint.
 */
const DROPS = 'PLNSGBR';

const squareIndex = (file: number, rank: number): number => {
  const f = file - 48;
  const r = rank - 97;
  return f < 1 || f > 9 || r < 0 || r > 8 ? -1 : r * 9 + (9 - f);
};
const squareText = (i: number): string => `${9 - (i % 9)}${String.fromCharCode(97 + Math.floor(i / 9))}`;

/** The code of a well-formed USI move, or -1. */
export function moveCode(usi: string): number {
  if (usi.length === 4 && usi.charCodeAt(1) === 42 /* * */) {
    const piece = DROPS.indexOf(usi.charAt(0));
    const to = squareIndex(usi.charCodeAt(2), usi.charCodeAt(3));
    return piece < 0 || to < 0 ? -1 : ((81 + piece) * 81 + to) * 2;
  }
  if (usi.length !== 4 && !(usi.length === 5 && usi.charAt(4) === '+')) return -1;
  const from = squareIndex(usi.charCodeAt(0), usi.charCodeAt(1));
  const to = squareIndex(usi.charCodeAt(2), usi.charCodeAt(3));
  if (from < 0 || to < 0 || from === to) return -1;
  return (from * 81 + to) * 2 + (usi.length === 5 ? 1 : 0);
}

/** The USI text of a code. */
export function usiOfCode(code: number): string {
  const promote = code & 1;
  const to = (code >> 1) % 81;
  const from = Math.floor((code >> 1) / 81);
  if (from >= 81) return `${DROPS.charAt(from - 81)}*${squareText(to)}`;
  return `${squareText(from)}${squareText(to)}${promote ? '+' : ''}`;
}
