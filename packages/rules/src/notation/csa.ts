/**
 * CSA standard game records, V2.2 and V3.0 (computer-shogi.org/protocol/record_v22.html
 * and record_v3.html): parsing into a GameRecord and exporting one.
 *
 * A CSA move names the piece after the move (`+2822UM`), so promotion is only visible
 * against the piece on the origin square: the parser tracks a board. A move it cannot
 * interpret (empty origin, unknown or mismatched piece code, wrong sign) is an error with
 * its line; a move it can interpret but the rules forbid is kept for replay to judge.
 */
import { START_SFEN } from '../sfen.js';
import { type Color, KING, ok, PROMOTED, type Result } from '../types.js';
import {
  DECLARATION_NOTE,
  DECLARER_FOUL,
  declarationFailed,
  CSA_INFO_TAGS as INFO_TAGS,
  kifOnlyLines,
  readCsaInfo,
  readDeclaration,
  readKifLine,
} from './cross-format.js';
import {
  CSA_PIECE_CODES as CODES,
  csaCodeType as codeType,
  csaBoardLines,
  csaMoveText,
  csaMoveToUsi,
} from './csa-move.js';
import {
  applyTrack,
  boardSfen,
  ENDINGS,
  type EndingKind,
  type GameRecord,
  MAX_LINE_CHARS,
  MAX_RECORD_CHARS,
  MAX_RECORD_MOVES,
  newDraft,
  type RecordDraft,
  type RecordError,
  readUsi,
  recordError,
  squareIndex,
  type TrackBoard,
  trackBoard,
} from './record.js';

const csaEnding = (word: string): EndingKind => {
  const kind = word.toLowerCase();
  return kind !== 'other' && (ENDINGS as readonly string[]).includes(kind) ? (kind as EndingKind) : 'other';
};

/** Hirate (the even start) as CSA board rows, for `PI` and for exporting. */
const HIRATE_ROWS = [
  '-KY-KE-GI-KI-OU-KI-GI-KE-KY',
  ' * -HI *  *  *  *  * -KA * ',
  '-FU-FU-FU-FU-FU-FU-FU-FU-FU',
  ' *  *  *  *  *  *  *  *  * ',
  ' *  *  *  *  *  *  *  *  * ',
  ' *  *  *  *  *  *  *  *  * ',
  '+FU+FU+FU+FU+FU+FU+FU+FU+FU',
  ' * +KA *  *  *  *  * +HI * ',
  '+KY+KE+GI+KI+OU+KI+GI+KE+KY',
];

type Fail = { ok: false; error: RecordError };

/** Parser state: the board being set up, then played on. */
interface State {
  readonly board: TrackBoard;
  positioned: boolean;
  /** Set by the side-to-move line, which ends the setup. */
  sfen: string | null;
  readonly record: RecordDraft;
}

function newState(): State {
  return {
    board: { squares: new Array<number>(81).fill(0), hands: [new Array(8).fill(0), new Array(8).fill(0)], side: 0 },
    positioned: false,
    sfen: null,
    record: newDraft(START_SFEN),
  };
}

/** `P1`..`P9`: a rank as nine 3-character cells, ` * ` for empty. */
function rowLine(st: State, text: string, line: number): Fail | null {
  const rank = text.charCodeAt(1) - 48;
  const cells = text.slice(2).padEnd(27, ' ');
  if (cells.slice(27).trim() !== '') return recordError('bad_position', line, 'rank too long');
  for (let c = 0; c < 9; c++) {
    const cell = cells.slice(c * 3, c * 3 + 3);
    let piece = 0;
    if (cell.trim() !== '*') {
      const type = codeType(cell.slice(1));
      if ((cell[0] !== '+' && cell[0] !== '-') || type <= 0)
        return recordError('bad_position', line, `bad cell '${cell}'`);
      piece = type | ((cell[0] === '-' ? 1 : 0) << 4);
    }
    st.board.squares[(rank - 1) * 9 + c] = piece;
  }
  st.positioned = true;
  return null;
}

/** Pieces not yet placed on the board or in a hand, per unpromoted type (kings excluded). */
function remaining(board: TrackBoard): number[] {
  const left = [0, 18, 4, 4, 4, 2, 2, 4, 0];
  for (const p of board.squares) if (p !== 0) left[(p & 15) > KING ? (p & 15) - PROMOTED : p & 15]!--;
  for (const hand of board.hands) for (let t = 1; t < 8; t++) left[t]! -= hand[t] ?? 0;
  return left;
}

/** `PI82HI22KA` (hirate minus pieces) and `P+99KY00KI` / `P-00AL` (pieces for one side). */
function pieceLine(st: State, text: string, line: number): Fail | null {
  if (text.startsWith('PI')) {
    for (const [r, row] of HIRATE_ROWS.entries()) {
      const failed = rowLine(st, `P${r + 1}${row}`, line);
      if (failed) return failed;
    }
  }
  const color = (text[1] === '-' ? 1 : 0) as Color;
  const body = text.slice(2).trimEnd();
  if (body.length % 4 !== 0) return recordError('bad_position', line, 'pieces come in 4-character groups');
  for (let i = 0; i < body.length; i += 4) {
    const file = body.charCodeAt(i) - 48;
    const rank = body.charCodeAt(i + 1) - 48;
    const code = body.slice(i + 2, i + 4);
    if (file < 0 || file > 9 || rank < 0 || rank > 9 || (file === 0) !== (rank === 0))
      return recordError('bad_position', line, `bad square in '${body.slice(i, i + 4)}'`);
    if (text[1] === 'I') {
      const at = squareIndex(file, rank);
      if (file === 0 || CODES[(st.board.squares[at] ?? 0) & 15] !== code)
        return recordError('bad_position', line, `no ${code} on ${file}${rank} to remove`);
      st.board.squares[at] = 0;
    } else if (file === 0 && code === 'AL') {
      const left = remaining(st.board);
      for (let t = 1; t < 8; t++) st.board.hands[color][t]! += Math.max(0, left[t] ?? 0);
    } else {
      const type = codeType(code);
      if (type <= 0 || (file === 0 && type >= KING)) return recordError('bad_position', line, `bad piece '${code}'`);
      if (file === 0) st.board.hands[color][type]!++;
      else st.board.squares[squareIndex(file, rank)] = type | (color << 4);
    }
  }
  st.positioned = true;
  return null;
}

/** A move statement `+7776FU` / `-0055KA`, interpreted against the tracked board. */
function moveStatement(st: State, text: string, line: number): Fail | null {
  if (st.sfen === null) return recordError('missing_side', line, 'a move before the side-to-move line');
  if (st.record.moves.length >= MAX_RECORD_MOVES) return recordError('too_many_moves', line, 'too many moves');
  const usi = csaMoveToUsi(st.board, text);
  if (!usi.ok) return recordError(usi.error.code, line, usi.error.message);
  applyTrack(st.board, readUsi(usi.value) as NonNullable<ReturnType<typeof readUsi>>);
  st.record.moves.push(usi.value);
  st.record.times.push(null);
  return null;
}

function timeStatement(st: State, text: string, line: number): Fail | null {
  if (!/^T\d{1,9}(\.\d{1,3})?$/.test(text)) return recordError('bad_time', line, `cannot read time '${text}'`);
  const seconds = Number(text.slice(1));
  const { record } = st;
  if (record.ending) record.ending = { ...record.ending, seconds };
  else if (record.moves.length > 0) record.times[record.moves.length - 1] = seconds;
  else return recordError('bad_time', line, 'a time before any move');
  return null;
}

/**
 * `'*…` is a comment on the move (or ending) before it; any other `'…` line is one readers skip
 * (CSA standard V3.0, 1.2; tsshogi shows the first kind and drops the second), kept as a note.
 * Before the start, `'KEY:value` is a KIF header a CSA export kept (cross-format.ts).
 */
function comment(st: State, text: string): void {
  const { record } = st;
  if (text.startsWith("'summary:")) record.summary = text.slice(9);
  else if (/^'CSA encoding=/i.test(text)) return;
  else if (st.sfen === null && readKifLine(record, text)) return;
  else {
    // a comment after the ending is the ending's
    const ply = record.moves.length + (record.ending ? 1 : 0);
    record.comments.push(
      text.startsWith("'*") ? { ply, text: text.slice(2) } : { ply, text: text.slice(1), kind: 'note' },
    );
  }
}

function infoLine(st: State, text: string, line: number): Fail | null {
  const colon = text.indexOf(':');
  if (colon < 2) return recordError('bad_line', line, `bad info line '${text.slice(0, 40)}'`);
  readCsaInfo(st.record, text.slice(1, colon), text.slice(colon + 1));
  return null;
}

function headerLine(st: State, text: string, line: number): Fail | null {
  // Names and info say nothing about the moves, so they are read wherever they stand: servers
  // write $END_TIME when the game ends, after the moves and the ending. A version or position
  // line after the side to move would change the game the moves were read on.
  if (text.startsWith('N+')) st.record.players = { ...st.record.players, sente: text.slice(2) };
  else if (text.startsWith('N-')) st.record.players = { ...st.record.players, gote: text.slice(2) };
  else if (text.startsWith('$')) return infoLine(st, text, line);
  else if (st.sfen !== null) return recordError('bad_line', line, `header after the moves: '${text.slice(0, 40)}'`);
  else if (text.startsWith('V'))
    return /^V\d(\.\d+)?$/.test(text) ? null : recordError('bad_line', line, 'bad version');
  else if (/^P[1-9]/.test(text)) return rowLine(st, text, line);
  else if (/^P[I+-]/.test(text)) return pieceLine(st, text, line);
  else return recordError('bad_line', line, `cannot read '${text.slice(0, 40)}'`);
  return null;
}

function sideLine(st: State, text: string, line: number): Fail | null {
  if (st.sfen !== null) return recordError('bad_line', line, 'a second side-to-move line');
  if (!st.positioned) return recordError('missing_position', line, 'side to move before the position');
  st.board.side = text === '-' ? 1 : 0;
  const sfen = boardSfen(st.board, line);
  if (!sfen.ok) return sfen;
  st.sfen = sfen.value;
  return null;
}

function statement(st: State, text: string, line: number): Fail | null {
  if (text === '+' || text === '-') return sideLine(st, text, line);
  if (text.startsWith('%')) {
    if (st.sfen === null) return recordError('missing_side', line, 'an ending before the side-to-move line');
    // servers write a special move again after its comment (`%KACHI,'* -5000 win` then `%KACHI`):
    // the same declaration, said twice; a different one is a second ending
    if (st.record.ending?.raw === text) return null;
    if (st.record.ending) return recordError('bad_line', line, 'a second ending');
    st.record.ending = { kind: csaEnding(text.slice(1)), raw: text, seconds: null };
    return null;
  }
  if (text.startsWith('T')) return timeStatement(st, text, line);
  if (text.startsWith('+') || text.startsWith('-')) {
    if (st.record.ending) return recordError('bad_move', line, 'a move after the ending');
    return moveStatement(st, text, line);
  }
  return headerLine(st, text, line);
}

export function parseCsa(input: string): Result<GameRecord, RecordError> {
  if (input.length > MAX_RECORD_CHARS) return recordError('too_large', 0, 'record too large');
  const st = newState();
  const lines = input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (raw.length > MAX_LINE_CHARS) return recordError('too_large', line, 'line too long');
    if (raw === '/') break; // several records in one file: the first one only
    if (raw.startsWith("'")) {
      comment(st, raw);
      continue;
    }
    // move lines may hold several statements: `+7776FU,T12,-3334FU`; a comment may end one
    // (Floodgate writes `%KACHI,'* -5000 win`), and it runs to the end of the line
    const parts = /^[+\-T%]/.test(raw) ? raw.split(',') : [raw];
    for (const [j, part] of parts.entries()) {
      if (j > 0 && part.trimStart().startsWith("'")) {
        comment(st, parts.slice(j).join(',').trimStart());
        break;
      }
      // a rank line's last cell may end in a space; elsewhere trailing blanks mean nothing
      const text = /^P[1-9]/.test(part) ? part : part.trim();
      if (text === '') continue;
      const failed = statement(st, text, line);
      if (failed) return failed;
    }
  }
  if (st.sfen === null)
    return st.positioned
      ? recordError('missing_side', 0, 'no side-to-move line')
      : recordError('missing_position', 0, 'no start position');
  st.record.sfen = st.sfen;
  readDeclaration(st.record);
  return ok(st.record);
}

// --- export ---------------------------------------------------------------------------

export interface CsaExportOptions {
  readonly version: '2.2' | '3.0';
}

const HIRATE_BOARD: readonly number[] = HIRATE_ROWS.flatMap((row) =>
  Array.from({ length: 9 }, (_, c) => {
    const cell = row.slice(c * 3, c * 3 + 3);
    return cell.trim() === '*' ? 0 : codeType(cell.slice(1)) | ((cell[0] === '-' ? 1 : 0) << 4);
  }),
);

/** `PI` plus removed pieces when the start is the even game minus some pieces, else rank lines. */
function positionLines(board: TrackBoard): string[] {
  const handsEmpty = board.hands.every((hand) => hand.every((n) => n === 0));
  const subset = board.squares.every((p, i) => p === 0 || p === HIRATE_BOARD[i]);
  if (handsEmpty && subset) {
    let removed = '';
    for (const [i, p] of HIRATE_BOARD.entries())
      if (p !== 0 && board.squares[i] === 0) removed += `${9 - (i % 9)}${((i / 9) | 0) + 1}${CODES[p & 15]}`;
    return [`PI${removed}`];
  }
  return csaBoardLines(board);
}

const timeText = (seconds: number, version: CsaExportOptions['version']): string =>
  version === '3.0' ? String(Math.round(seconds * 1000) / 1000) : String(Math.floor(seconds));

function endingText(end: NonNullable<GameRecord['ending']>): string {
  if (end.raw.startsWith('%') && csaEnding(end.raw.slice(1)) === end.kind) return end.raw;
  return end.kind === 'other' ? '%ERROR' : `%${end.kind.toUpperCase()}`;
}

/** The record as CSA text; an invalid start or a move that cannot be written is an error. */
export function exportCsa(record: GameRecord, options: CsaExportOptions): Result<string, RecordError> {
  const tracked = trackBoard(record.sfen);
  if (!tracked.ok) return tracked;
  const board = tracked.value;
  const out = options.version === '3.0' ? ["'CSA encoding=UTF-8", 'V3.0'] : ['V2.2'];
  if (record.players.sente !== null) out.push(`N+${record.players.sente}`);
  if (record.players.gote !== null) out.push(`N-${record.players.gote}`);
  for (const [key, tag] of INFO_TAGS) if (record.info[key] !== undefined) out.push(`$${tag}:${record.info[key]}`);
  for (const extra of record.extraInfo) if (extra.format === 'csa') out.push(`$${extra.key}:${extra.value}`);
  out.push(...kifOnlyLines(record));
  out.push(...positionLines(board), board.side === 0 ? '+' : '-');
  const comments = (ply: number): void => {
    for (const c of record.comments)
      if (c.ply === ply)
        // a note reads as a KIF header when it has that shape before the start: never so here, as
        // the start is written; a note that begins with `*` would read as a comment: a blank first
        for (const text of c.text.split(/\r?\n/))
          out.push(c.kind === 'note' ? `'${text.startsWith('*') ? ` ${text}` : text}` : `'*${text}`);
  };
  comments(0);
  for (const [i, usi] of record.moves.entries()) {
    const m = readUsi(usi);
    const text = m === null ? null : csaMoveText(board, m);
    if (m === null || text === null) return recordError('bad_move', 0, `move ${i + 1} '${usi}' cannot be written`);
    out.push(text);
    applyTrack(board, m);
    const time = record.times[i] ?? null;
    if (time !== null) out.push(`T${timeText(time, options.version)}`);
    comments(i + 1);
  }
  if (record.ending) {
    // a failed declaration is the declarer's foul, as readers score it, and the note says what it was
    const failed = declarationFailed(record, board.side);
    out.push(failed ? `%${DECLARER_FOUL.toUpperCase()}` : endingText(record.ending));
    if (record.ending.seconds !== null) out.push(`T${timeText(record.ending.seconds, options.version)}`);
    if (failed) out.push(`'${DECLARATION_NOTE}`);
    comments(record.moves.length + 1);
  }
  if (record.summary !== null) out.push(`'summary:${record.summary}`);
  return ok(`${out.join('\n')}\n`);
}
