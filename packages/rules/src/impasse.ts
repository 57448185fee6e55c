/**
 * Impasse (jishogi) by the 27-point declaration rule (RULES.md): on their own turn, the
 * declarer's king stands in the opponent's camp and is not in check, at least 10 other
 * pieces of theirs stand there, and the camp pieces plus the hand are worth at least
 * 28 points for sente or 27 for gote (rook and bishop 5, promoted or not; others 1).
 */
import type { Position } from './position.js';
import { inZone, SQUARES } from './squares.js';
import { BISHOP, EMPTY, KING, ROOK, unpromote } from './types.js';

export interface ImpasseAssessment {
  readonly valid: boolean;
  readonly kingInCamp: boolean;
  readonly inCheck: boolean;
  readonly piecesInCamp: number;
  readonly points: number;
  readonly pointsNeeded: number;
}

const value = (type: number): number => (type === ROOK || type === BISHOP ? 5 : 1);

export function assessImpasse(pos: Position): ImpasseAssessment {
  const us = pos.side;
  const king = pos.kingSq[us] as number;
  const kingInCamp = king >= 0 && inZone(king, us);
  const inCheck = pos.inCheck();
  let piecesInCamp = 0;
  let points = 0;
  for (const s of SQUARES) {
    const p = pos.board[s] as number;
    if (p === EMPTY || p >> 4 !== us || !inZone(s, us)) continue;
    const type = unpromote(p & 15);
    if (type === KING) continue;
    piecesInCamp++;
    points += value(type);
  }
  for (let type = 1; type < 8; type++) points += pos.hand(us, type) * value(type);
  const pointsNeeded = us === 0 ? 28 : 27;
  const valid = kingInCamp && !inCheck && piecesInCamp >= 10 && points >= pointsNeeded;
  return { valid, kingInCamp, inCheck, piecesInCamp, points, pointsNeeded };
}
