/**
 * The engine's info lines as the client gets them: one `depth` line for each completed depth
 * of each MultiPV line, its score turned to sente's side. A line the search resumed after a
 * pause repeats depths already sent: only deeper ones go out.
 */
import { normaliseScore } from '@shogi/engine-bots';
import type { PositionEvalDepth } from '@shogi/protocol';
import { type PositionSpec, sideToMove, type UsiInfo } from '@shogi/usi';

export const sideToMoveOf = (position: PositionSpec): 'sente' | 'gote' =>
  sideToMove(position) === 'b' ? 'sente' : 'gote';

export class DepthLines {
  private readonly deepest = new Map<number, number>();
  private readonly side: 'sente' | 'gote';

  constructor(position: PositionSpec) {
    this.side = sideToMoveOf(position);
  }

  /** The deepest depth sent of the best line (0 before any). */
  get depth(): number {
    return this.deepest.get(1) ?? 0;
  }

  /**
   * The line to send for this info, or null: lines without a depth, a score or a line of play
   * (`currmove` reports), bounds (a depth not finished yet), and depths already sent.
   */
  lineOf(info: UsiInfo): PositionEvalDepth | null {
    const { depth, score, pv } = info;
    if (depth === undefined || score === undefined || score.bound !== undefined || pv === undefined || pv.length === 0)
      return null;
    const multipv = info.multipv ?? 1;
    if (depth <= (this.deepest.get(multipv) ?? 0)) return null;
    this.deepest.set(multipv, depth);
    return {
      type: 'depth',
      depth,
      ...(info.seldepth === undefined ? {} : { seldepth: info.seldepth }),
      multipv,
      score: normaliseScore(score, this.side),
      ...(info.nodes === undefined ? {} : { nodes: info.nodes }),
      ...(info.nps === undefined ? {} : { nps: info.nps }),
      ...(info.time === undefined ? {} : { time: info.time }),
      pv: [...pv],
    };
  }
}
