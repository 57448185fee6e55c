/**
 * KIF game records (Kakinoki's format, kakinoki.o.oo7.jp/kif_format.html, as Kifu for
 * Windows, Kakinoki, Shogidokoro, ShogiGUI, Kifu for JS and ElectronShogi write it): the main
 * line and its variations (変化：) into a GameRecord (writing one: kif-export.ts).
 *
 * A move names the destination, the piece before the move and its origin
 * (`７六歩(77)`, `同　銀(68)`, `２二角成(88)`, `５五角打`); the parser tracks a board to
 * check the piece name and resolve 同, and leaves legality to replay. Dialects differ in
 * blanks (full-width ones before the origin), digits (ASCII or full-width destinations), the
 * time column (`( 0:01/00:00:01)`, Shogidokoro's `(00:31 / 00:00:31)`, none), the `+` that
 * marks a move with variations, and `封じ手` (a sealed move in a two-day game).
 */

import { START_SFEN } from '../sfen.js';
import { canPromoteType, KING, ok, type Result } from '../types.js';
import { readDeclaration } from './cross-format.js';
import { closingResult, type HeaderState, headerLine, newHeader, startBoard } from './kif-header.js';
import { digit, ENDING_WORDS, FOUL_WORDS, NAMES, pieceType } from './kif-words.js';
import {
  boardUsi,
  dropUsi,
  type EndingKind,
  type GameRecord,
  MAX_LINE_CHARS,
  MAX_RECORD_CHARS,
  newDraft,
  type RecordError,
  recordError,
  squareIndex,
} from './record.js';
import { LineCursor } from './record-tree.js';

export {
  BOD_NAMES,
  countKanji,
  ENDING_WORDS,
  FOUL_WORDS,
  HEADER_KEYS,
  KAN,
  KIF_HANDICAPS,
  kifHandicapName,
  NAMES,
  ZEN,
} from './kif-words.js';

type Fail = { ok: false; error: RecordError };

/**
 * The word a sealed move is written with: the record of an adjourned game ends there (read as
 * an interruption); in the record of the whole game the move itself follows under the same
 * number, and the word stays as a comment before it.
 */
export const SEALED_MOVE = '封じ手';

/** What follows a move or an ending: its time, a `+` (variations follow), `封じ手`. */
interface Tail {
  readonly seconds: number | null;
  readonly sealed: boolean;
}

const TIME = /^[(（]\s*(\d{1,6}):(\d{1,2})(?::(\d{1,2}))?\s*(?:[/／][\d:\s]{0,24})?[)）]/;

/** `( 0:01/00:00:01)`, `(00:31 / 00:00:31)`, `( 1:02:03/)`: the seconds of this move; the running total is not kept. */
function tail(rest: string, line: number): Result<Tail, RecordError> {
  let text = rest.trim();
  let seconds: number | null = null;
  const t = TIME.exec(text);
  if (t) {
    const [a, b, c] = [Number(t[1]), Number(t[2]), t[3] === undefined ? null : Number(t[3])];
    seconds = c === null ? a * 60 + b : a * 3600 + b * 60 + c;
    text = text.slice(t[0].length).trim();
  }
  const sealed = text.includes(SEALED_MOVE);
  if (sealed) text = text.replace(SEALED_MOVE, '').trim();
  if (!/^\+?$/.test(text)) return recordError('bad_time', line, `cannot read '${rest.trim().slice(0, 40)}'`);
  return ok({ seconds, sealed });
}

interface State {
  readonly header: HeaderState;
  cursor: LineCursor | null;
}

function ending(cursor: LineCursor, text: string, line: number): Fail | null {
  const word = ENDING_WORDS.find(([w]) => text.startsWith(w));
  const foul = FOUL_WORDS.find(([w]) => text.startsWith(w));
  const raw = word?.[0] ?? foul?.[0];
  if (raw === undefined) return recordError('bad_move', line, `cannot read move '${text.slice(0, 20)}'`);
  const rest = tail(text.slice(raw.length), line);
  if (!rest.ok) return rest;
  const mover = cursor.board.side;
  const loser = foul?.[1] === 'mover' ? mover : mover ^ 1;
  const kind: EndingKind = word ? word[1] : loser === 0 ? '+illegal_action' : '-illegal_action';
  return cursor.end({ kind, raw, seconds: rest.value.seconds }, line);
}

const BLANKS = /^[\s\u3000]*/;
const ORIGIN = /^[(（]([1-9１-９])([1-9１-９])[)）]/;

function move(cursor: LineCursor, text: string, line: number): Fail | null {
  if (cursor.line.ending?.raw === SEALED_MOVE) {
    cursor.reopen();
    cursor.comment(SEALED_MOVE);
  }
  const board = cursor.board;
  let at = 0;
  let to: number;
  if (text[0] === '同') {
    if (cursor.lastTo < 0) return recordError('bad_move', line, '同 without a previous move');
    to = cursor.lastTo;
    at = 1 + (BLANKS.exec(text.slice(1))?.[0].length ?? 0);
  } else {
    const file = digit(text[0]);
    const rank = digit(text[1]);
    if (!file || !rank) {
      if (text.startsWith(SEALED_MOVE)) {
        // a record published while the game is adjourned ends here; one of the whole game goes on
        const rest = tail(text.slice(SEALED_MOVE.length), line);
        if (!rest.ok) return rest;
        return cursor.end({ kind: 'chudan', raw: SEALED_MOVE, seconds: rest.value.seconds }, line);
      }
      return ending(cursor, text, line);
    }
    to = squareIndex(file, rank);
    at = 2;
  }
  // 成香 成桂 成銀 are two characters; every other name is one
  const two = text[at] === '成' ? pieceType(text.slice(at, at + 2)) : 0;
  const type = two || pieceType(text[at] ?? '');
  if (type <= 0) return recordError('unknown_piece', line, `unknown piece in '${text.slice(0, 20)}'`);
  at += two ? 2 : 1;
  at += BLANKS.exec(text.slice(at))?.[0].length ?? 0;
  const suffix = /^(不成|成|打|生)?/.exec(text.slice(at))?.[0] ?? '';
  at += suffix.length;
  at += BLANKS.exec(text.slice(at))?.[0].length ?? 0;
  const origin = ORIGIN.exec(text.slice(at));
  let usi: string;
  if (!origin) {
    // KIF gives every board move its origin and writes every drop 打: a move with neither is
    // a damaged line (taking it for a drop would silently play a different game)
    if (suffix !== '打')
      return recordError('bad_move', line, `'${text.slice(0, 20)}' has no origin (xy), and a drop is written 打`);
    if (type >= KING) return recordError('bad_move', line, `'${text.slice(0, 20)}' cannot be a drop`);
    usi = dropUsi(type, to);
  } else {
    at += origin[0].length;
    const [file, rank] = [digit(origin[1]), digit(origin[2])];
    const from = squareIndex(file, rank);
    const piece = (board.squares[from] ?? 0) & 15;
    if (piece === 0) return recordError('no_piece', line, `no piece on ${file}${rank}`);
    if (piece !== type) return recordError('piece_mismatch', line, `${NAMES[piece]} on ${file}${rank}`);
    if (suffix === '成' && !canPromoteType(piece))
      return recordError('bad_move', line, `${NAMES[piece]} cannot promote`);
    if (from === to) return recordError('bad_move', line, 'the move does not move');
    usi = boardUsi(from, to, suffix === '成');
  }
  const rest = tail(text.slice(at), line);
  if (!rest.ok) return rest;
  const failed = cursor.play(usi, rest.value.seconds, line);
  if (failed) return failed;
  if (rest.value.sealed) cursor.comment(SEALED_MOVE);
  return null;
}

const MOVE_LINE = /^[\s\u3000]*(\d{1,5})[\s\u3000]*(.*)$/;
const VARIATION_LINE = /^[\s\u3000]*変化[：:][\s\u3000]*(\d{1,5})/;
/** The file numbers over a BOD diagram in ASCII (`  9 8 7 6 5 4 3 2 1`), which is no move. */
const FILE_NUMBERS = /^\s*9\s+8\s+7/;

/** Ends the header once, at the first line of the moves. */
function cursorOf(st: State, line: number): Result<LineCursor, RecordError> {
  if (st.cursor !== null) return ok(st.cursor);
  const board = startBoard(st.header, line);
  if (!board.ok) return board;
  st.cursor = new LineCursor(st.header.record, board.value);
  return ok(st.cursor);
}

function moveLine(st: State, number: number, text: string, line: number): Fail | null {
  const cursor = cursorOf(st, line);
  if (!cursor.ok) return cursor;
  // a lost or repeated line would otherwise shift every later move to the other side
  if (number !== cursor.value.ply + 1)
    return recordError('bad_move', line, `move ${number} where move ${cursor.value.ply + 1} was due`);
  return move(cursor.value, text.replace(/^[▲△▼▽☗☖]/, ''), line);
}

export function parseKif(input: string): Result<GameRecord, RecordError> {
  if (input.length > MAX_RECORD_CHARS) return recordError('too_large', 0, 'record too large');
  const record = newDraft(START_SFEN);
  const st: State = { header: newHeader(record), cursor: null };
  const lines = input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (raw.length > MAX_LINE_CHARS) return recordError('too_large', line, 'line too long');
    if (raw.startsWith('*')) {
      // a comment keeps its blanks: it round-trips from CSA comments such as `'** 0 `
      if (st.cursor === null) record.comments.push({ ply: 0, text: raw.slice(1) });
      else st.cursor.comment(raw.slice(1));
      continue;
    }
    // native trimming (it covers the ideographic space): a trailing-blank regex is quadratic
    const text = raw.trimEnd();
    // `#` lines are the ones readers skip: in the header a program's banner or the encoding, which
    // say nothing of the game; among the moves a note (a CSA `'` line a KIF export kept)
    if (text.startsWith('#') && st.cursor !== null) st.cursor.comment(raw.slice(1), 'note');
    if (text === '' || text.startsWith('#') || text.startsWith('&')) continue;
    let failed: Fail | null = null;
    const variation = VARIATION_LINE.exec(text);
    const number = FILE_NUMBERS.test(text) ? null : MOVE_LINE.exec(text);
    if (variation) {
      // ElectronShogi once wrote a 変化 line into the header: there it means nothing
      if (st.cursor !== null) failed = st.cursor.branch(Number(variation[1]), line);
    } else if (text.startsWith('まで')) {
      if (st.cursor?.onMainLine !== false) record.result = closingResult(text);
    } else if (/^手数[-－ー]/.test(text)) {
      const cursor = cursorOf(st, line);
      if (!cursor.ok) return cursor;
    } else if (number) failed = moveLine(st, Number(number[1]), number[2] ?? '', line);
    // some programs write header lines (終了日時) after the moves
    else if (st.cursor === null || /^[^\s：:]+[：:]/.test(text)) failed = headerLine(st.header, text, line);
    else failed = recordError('bad_line', line, `cannot read '${text.slice(0, 40)}'`);
    if (failed) return failed;
  }
  const cursor = cursorOf(st, lines.length);
  if (!cursor.ok) return cursor;
  readDeclaration(record);
  return ok(record);
}
