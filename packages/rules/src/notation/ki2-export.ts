/**
 * A GameRecord written as KI2 (Kakinoki's second format, UTF-8): the KIF header, then the moves as
 * players write them (ki2-move.ts), six to a line, a comment after its move (`*`, a note `#`),
 * and the result in the closing line (`まで64手で後手の勝ち`), as KI2 has no ending moves. KI2
 * has no times: a record's times and an ending's seconds are not written. Variations follow
 * the main line as in KIF (`変化：N手`), each with its own closing line when it ends.
 */
import { type Color, ok, type Result } from '../types.js';
import { DECLARATION_NOTE, declarationFailed } from './cross-format.js';
import { ki2Move } from './ki2-move.js';
import { kifCommentLines, kifHeaderLines } from './kif-export.js';
import { kifHandicapName } from './kif-words.js';
import {
  applyTrack,
  cloneBoard,
  type Ending,
  type GameRecord,
  type RecordComment,
  type RecordError,
  type RecordVariation,
  readUsi,
  type StatedResult,
  type TrackBoard,
  trackBoard,
} from './record.js';

const MOVES_PER_LINE = 6;
/** The sides' names: 先手 and 後手, or 下手 and 上手 in a handicap game. */
type Names = readonly [string, string];
const EVEN: Names = ['先手', '後手'];
const HANDICAP: Names = ['下手', '上手'];

/** What the closing line says after `まで…手で` of an ending, which speaks of the side to move. */
export function ki2Closing(end: Ending, mover: Color, failedDeclaration: boolean, names: Names = EVEN): string {
  const other = (mover ^ 1) as Color;
  const sideName = (c: Color): string => names[c];
  switch (end.kind) {
    case 'toryo':
      return `${sideName(other)}の勝ち`;
    case 'time_up':
      return `時間切れにより${sideName(other)}の勝ち`;
    case 'illegal_move':
      return `${sideName(mover)}の反則負け`;
    case '+illegal_action':
    case '-illegal_action': {
      const loser: Color = end.kind === '+illegal_action' ? 0 : 1;
      return loser === mover ? `${sideName(mover)}の反則負け` : `${sideName(mover)}の反則勝ち`;
    }
    case 'kachi':
      // a failed declaration is the declarer's foul, as every reader scores it; a note says what it was
      return failedDeclaration ? `${sideName(mover)}の反則負け` : `${sideName(mover)}の入玉勝ち`;
    case 'tsumi':
      return '詰み';
    case 'fuzumi':
      return '不詰';
    case 'sennichite':
      return '千日手';
    case 'oute_sennichite':
      return '連続王手の千日手';
    case 'jishogi':
      return '持将棋';
    case 'hikiwake':
      return '引き分け';
    case 'max_moves':
      return '最大手数';
    case 'matta':
      return '待った';
    case 'error':
      return 'エラー';
    default:
      return end.raw === '封じ手' ? '封じ手' : '中断';
  }
}

interface Line {
  readonly ply: number;
  readonly moves: readonly string[];
  readonly comments: readonly RecordComment[];
  readonly ending: Ending | null;
  readonly variations: readonly RecordVariation[];
}

/** The board before a line's first move and the previous move's destination (for 同). */
interface LineStart {
  readonly board: TrackBoard;
  readonly lastTo: number;
  readonly names: Names;
}

function writeLine(
  out: string[],
  line: Line,
  start: LineStart,
  result: StatedResult | null | undefined,
): RecordError | null {
  const board = cloneBoard(start.board);
  let lastTo = start.lastTo;
  let row: string[] = [];
  const flush = (): void => {
    if (row.length > 0) out.push(row.join('').trimEnd());
    row = [];
  };
  const comments = (ply: number): void => {
    const lines = kifCommentLines(line.comments, ply);
    if (lines.length > 0) flush();
    out.push(...lines);
  };
  comments(line.ply - 1);
  for (const [i, usi] of line.moves.entries()) {
    const ply = line.ply + i;
    const text = ki2Move(board, usi, lastTo);
    const m = readUsi(usi);
    if (text === null || m === null)
      return { code: 'bad_move', line: 0, message: `move ${ply} '${usi}' cannot be written` };
    // moves in columns, as Kifu for Windows writes them: a full-width character is two columns
    row.push(`${text}${' '.repeat(Math.max(12 - text.length * 2, 1))}`);
    if (row.length >= MOVES_PER_LINE) flush();
    applyTrack(board, m);
    lastTo = m.to;
    comments(ply);
  }
  flush();
  const plies = line.ply + line.moves.length - 1;
  const endPly = plies + 1;
  if (line.ending) {
    const failed = result !== undefined && declarationFailed({ ending: line.ending, result }, board.side);
    out.push(`まで${plies}手で${ki2Closing(line.ending, board.side, failed, start.names)}`);
    if (failed) out.push(`#${DECLARATION_NOTE}`);
  } else if (result) out.push(`まで${plies}手で${result.text}`);
  comments(endPly);
  return null;
}

function writeVariations(out: string[], line: Line, start: LineStart): RecordError | null {
  const starts: LineStart[] = [];
  const board = cloneBoard(start.board);
  let lastTo = start.lastTo;
  for (const [i, usi] of line.moves.entries()) {
    starts.push({ board: cloneBoard(board), lastTo, names: start.names });
    const m = readUsi(usi);
    if (m === null) return { code: 'bad_move', line: 0, message: `move ${line.ply + i} '${usi}' cannot be written` };
    applyTrack(board, m);
    lastTo = m.to;
  }
  starts.push({ board, lastTo, names: start.names });
  // the latest branch first, each followed by its own: the order KIF readers attach 変化 by
  for (const v of [...line.variations].sort((a, b) => b.ply - a.ply)) {
    const at = starts[v.ply - line.ply];
    if (at === undefined || v.ply < line.ply)
      return { code: 'bad_move', line: 0, message: `a variation at move ${v.ply} outside its line` };
    out.push('', `変化：${v.ply}手`);
    const failed = writeLine(out, v, at, undefined) ?? writeVariations(out, v, at);
    if (failed) return failed;
  }
  return null;
}

/** The record as KI2 text; an invalid start or a move that cannot be played is an error. */
export function exportKi2(record: GameRecord): Result<string, RecordError> {
  const tracked = trackBoard(record.sfen);
  if (!tracked.ok) return tracked;
  const board = tracked.value;
  const out = ['#KI2 version=2.0 encoding=UTF-8', ...kifHeaderLines(record, board)];
  const main: Line = { ...record, ply: 1, variations: record.variations ?? [] };
  const name = kifHandicapName(record.sfen);
  const start: LineStart = { board, lastTo: -1, names: name !== null && name !== '平手' ? HANDICAP : EVEN };
  const failed = writeLine(out, main, start, record.result ?? null) ?? writeVariations(out, main, start);
  if (failed) return { ok: false, error: failed };
  return ok(`${out.join('\n')}\n`);
}
