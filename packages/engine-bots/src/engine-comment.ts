/**
 * An engine's comment on its own move, as Floodgate's clients send it with the move over the
 * CSA protocol (`+2726FU,'* 56 -8384FU +2625FU`: shogi-server's usiToCsa bridge, and the GUIs
 * that followed it): a `*`, the engine's score in centipawns from sente's side whichever side
 * moved, then the line it expects from the position after its move, in CSA move statements.
 * Read here into what an analysis keeps of a position: the score from the side to move (as a
 * USI engine gives it) and the line as USI moves.
 *
 * A comment is a player's claim: anything that is not this shape is no evaluation, and the
 * line is kept only as far as its moves are legal.
 */
import { PositionHistory, parseSfen, toSfen, usiOfCsaMove } from '@shogi/rules';
import type { PositionEvaluation } from './analysis.js';

export interface EngineComment {
  /** centipawns, from sente's side */
  readonly score: number;
  /** CSA move statements from the position after the commented move (unchecked) */
  readonly line: readonly string[];
}

const CSA_MOVE = /^[+-]\d{4}[A-Z]{2}$/;
// shogi-server writes a client's `'*` comment into its own records as `'**`
const HEAD = /^\*{1,2}\s*([+-]?\d{1,9})(?:\s+|$)/;

/** The score and line of a Floodgate-style comment; null when the comment is something else. */
export function parseEngineComment(text: string): EngineComment | null {
  const head = HEAD.exec(text);
  if (head === null) return null;
  const line: string[] = [];
  for (const token of text.slice(head[0].length).split(/\s+/)) {
    // the line ends at the first word that is not a move (some clients add free text after it)
    if (!CSA_MOVE.test(token)) break;
    line.push(token);
  }
  return { score: Number(head[1]) + 0, line };
}

/**
 * The comment's verdict on the position `sfen` (the position after the commented move), as an
 * engine's search reports one: the score turned to the side to move there, the line as USI
 * moves while they are legal. A line that starts with the commented move itself (some clients
 * send their whole line) has that move dropped. Null when the comment is no evaluation.
 */
export function evaluationOfComment(sfen: string, comment: string): PositionEvaluation | null {
  const parsed = parseEngineComment(comment);
  if (parsed === null) return null;
  const position = parseSfen(sfen);
  if (!position.ok) return null;
  const toMove = position.value.side === 0 ? '+' : '-';
  const line = parsed.line[0] !== undefined && parsed.line[0][0] !== toMove ? parsed.line.slice(1) : parsed.line;
  const history = new PositionHistory(position.value);
  const pv: string[] = [];
  for (const move of line) {
    const usi = usiOfCsaMove(toSfen(history.position), move);
    if (!usi.ok || !history.playUsi(usi.value).ok) break;
    pv.push(usi.value);
  }
  const fromSideToMove = toMove === '+' ? parsed.score : -parsed.score;
  return { score: { kind: 'cp', value: fromSideToMove + 0 }, pv };
}

/** A comment's verdict, on the position after move `ply` (the commented move). */
export interface CommentEvaluation {
  readonly ply: number;
  readonly evaluation: PositionEvaluation;
}

/**
 * The verdicts of a game's move comments (`{ply, text}`: the comment after move `ply`), in ply
 * order; comments that are no evaluation, and any after an illegal move, are left out.
 */
export function commentEvaluations(
  sfen: string,
  moves: readonly string[],
  comments: readonly { readonly ply: number; readonly text: string }[],
): CommentEvaluation[] {
  const byPly = new Map(comments.map((c) => [c.ply, c.text]));
  const start = parseSfen(sfen);
  if (!start.ok || byPly.size === 0) return [];
  const history = new PositionHistory(start.value);
  const found: CommentEvaluation[] = [];
  for (const [i, move] of moves.entries()) {
    if (!history.playUsi(move).ok) break;
    const text = byPly.get(i + 1);
    const evaluation = text === undefined ? null : evaluationOfComment(toSfen(history.position), text);
    if (evaluation !== null) found.push({ ply: i + 1, evaluation });
  }
  return found;
}
