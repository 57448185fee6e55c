/**
 * The line of play a KIF or KI2 parser is writing to, among the main line and its variations
 * (変化), with the board after every ply of that line, so a variation can start from any
 * earlier ply. A variation `変化：N手` replaces move N of the deepest line on the current path
 * that starts before N (Kifu for Windows writes variations depth first, each after the line
 * it leaves), which is how Kakinoki's readers attach it.
 */
import {
  applyTrack,
  cloneBoard,
  type Ending,
  MAX_RECORD_MOVES,
  type RecordDraft,
  type RecordError,
  readUsi,
  recordError,
  type TrackBoard,
  type VariationDraft,
} from './record.js';

type Fail = { ok: false; error: RecordError };
type Line = Omit<VariationDraft, 'ply'>;

export class LineCursor {
  /** The lines from the main line to the one being written, with the ply of each one's first move. */
  private readonly path: { line: Line; start: number }[];
  /** boards[p]: the position after p plies of the current path; lastTos[p]: the square of move p (-1: none). */
  private readonly boards: TrackBoard[];
  private readonly lastTos: number[];
  private total = 0;

  constructor(record: RecordDraft, start: TrackBoard) {
    this.path = [{ line: record, start: 1 }];
    this.boards = [cloneBoard(start)];
    this.lastTos = [-1];
  }

  /** Plies played on the current path. */
  get ply(): number {
    return this.boards.length - 1;
  }

  /** The position now; callers read it and must not change it. */
  get board(): TrackBoard {
    return this.boards[this.ply] as TrackBoard;
  }

  /** The destination of the last move (for 同), -1 before any. */
  get lastTo(): number {
    return this.lastTos[this.ply] ?? -1;
  }

  get line(): Line {
    return (this.path.at(-1) as { line: Line }).line;
  }

  /** True while the main line is being written. */
  get onMainLine(): boolean {
    return this.path.length === 1;
  }

  play(usi: string, time: number | null, lineNo: number): Fail | null {
    if (this.total >= MAX_RECORD_MOVES) return recordError('too_many_moves', lineNo, 'too many moves');
    if (this.line.ending !== null) return recordError('bad_move', lineNo, 'a move after the ending');
    const m = readUsi(usi);
    const board = cloneBoard(this.board);
    if (m === null || !applyTrack(board, m)) return recordError('bad_move', lineNo, `'${usi}' cannot be played`);
    this.boards.push(board);
    this.lastTos.push(m.to);
    this.line.moves.push(usi);
    this.line.times.push(time);
    this.total++;
    return null;
  }

  end(ending: Ending, lineNo: number): Fail | null {
    if (this.line.ending !== null) return recordError('bad_line', lineNo, 'a second ending');
    this.line.ending = ending;
    return null;
  }

  /** Lifts the line's ending, for one that a move may follow (a sealed move's line). */
  reopen(): void {
    this.line.ending = null;
  }

  /** A comment after the ending is the ending's: the ply after the line's last move. */
  comment(text: string, kind?: 'note'): void {
    const ply = this.ply + (this.line.ending === null ? 0 : 1);
    this.line.comments.push(kind === undefined ? { ply, text } : { ply, text, kind });
  }

  /**
   * Starts the variation that replaces move `ply`. A variation after the end of its line
   * (no move `ply` there and no ending) is no alternative: the moves continue that line.
   */
  branch(ply: number, lineNo: number): Fail | null {
    let at = this.path.length - 1;
    while (at > 0 && (this.path[at] as { start: number }).start >= ply) at--;
    const parent = this.path[at] as { line: Line; start: number };
    const parentEnd = parent.start + parent.line.moves.length - 1;
    const reached = at === this.path.length - 1 ? this.ply : parentEnd;
    if (ply < 1 || reached < ply - 1)
      return recordError('bad_line', lineNo, `a variation at move ${ply}, where its line has ${reached} moves`);
    this.path.length = at + 1;
    this.boards.length = ply;
    this.lastTos.length = ply;
    if (parentEnd < ply && parent.line.ending === null) return null;
    const variation: VariationDraft = { ply, moves: [], times: [], comments: [], ending: null, variations: [] };
    parent.line.variations.push(variation);
    this.path.push({ line: variation, start: ply });
    return null;
  }
}
