/**
 * SFEN in and out, and the validated construction of positions. Every malformed or
 * impossible position is an error value with a code; nothing here throws on input.
 */
import { isDeadDrop } from './movegen.js';
import { Position, type Setup } from './position.js';
import { SQUARES, squareName } from './squares.js';
import {
  type Color,
  type ColorName,
  canPromoteType,
  colorOf,
  EMPTY,
  err,
  HAND_TYPES,
  KING,
  ok,
  PAWN,
  PIECE_TOTALS,
  PROMOTED,
  pieceOf,
  type Result,
  typeOf,
  unpromote,
} from './types.js';

export const SFEN_ERRORS = [
  'too_long',
  'bad_format',
  'bad_row_count',
  'bad_row_length',
  'unknown_piece',
  'bad_promotion',
  'bad_side',
  'bad_hand',
  'bad_move_number',
  'too_many_kings',
  'dead_piece',
  'nifu',
  'too_many_pieces',
  'opponent_in_check',
] as const;
export type SfenErrorCode = (typeof SFEN_ERRORS)[number];
export interface SfenError {
  readonly code: SfenErrorCode;
  readonly message: string;
}
const fail = (code: SfenErrorCode, message: string): { ok: false; error: SfenError } => err({ code, message });

export const START_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

const LETTERS = ' PLNSBRGK';
const letterType = (ch: string): number => {
  const i = LETTERS.indexOf(ch.toUpperCase());
  return Math.max(i, 0);
};

/** A bound far above any real SFEN, so hostile input cannot make parsing slow. */
const MAX_SFEN_LENGTH = 256;

/** Parses SFEN text into a Setup (syntax only); `parseSfen` also validates the position. */
export function parseSfenSetup(text: string): Result<Setup, SfenError> {
  if (text.length > MAX_SFEN_LENGTH) return fail('too_long', `SFEN longer than ${MAX_SFEN_LENGTH} characters`);
  const fields = text.trim().split(/\s+/);
  if (fields.length < 3 || fields.length > 4) return fail('bad_format', 'expected "BOARD SIDE HAND [MOVE_NUMBER]"');
  const [boardText, sideText, handText, numberText] = fields as [string, string, string, string | undefined];
  const rows = boardText.split('/');
  if (rows.length !== 9) return fail('bad_row_count', `expected 9 rows, got ${rows.length}`);
  const squares: number[] = [];
  for (const [r, row] of rows.entries()) {
    let width = 0;
    let promoted = false;
    for (const ch of row) {
      if (ch >= '1' && ch <= '9') {
        if (promoted) return fail('bad_promotion', `'+' before a digit in row ${r + 1}`);
        const n = ch.charCodeAt(0) - 48;
        for (let i = 0; i < n; i++) squares.push(EMPTY);
        width += n;
      } else if (ch === '+') {
        if (promoted) return fail('bad_promotion', `'++' in row ${r + 1}`);
        promoted = true;
      } else {
        const type = letterType(ch);
        if (type === 0) return fail('unknown_piece', `unknown piece '${ch}' in row ${r + 1}`);
        if (promoted && !canPromoteType(type)) return fail('bad_promotion', `'+${ch}' cannot be promoted`);
        const color: Color = ch === ch.toUpperCase() ? 0 : 1;
        squares.push(pieceOf(promoted ? type + PROMOTED : type, color));
        promoted = false;
        width++;
      }
      if (width > 9) return fail('bad_row_length', `row ${r + 1} is longer than 9 squares`);
    }
    if (promoted) return fail('bad_promotion', `row ${r + 1} ends with '+'`);
    if (width !== 9) return fail('bad_row_length', `row ${r + 1} has ${width} squares, expected 9`);
  }
  if (sideText !== 'b' && sideText !== 'w')
    return fail('bad_side', `side to move must be 'b' or 'w', got '${sideText}'`);
  const hands: [number[], number[]] = [new Array<number>(8).fill(0), new Array<number>(8).fill(0)];
  if (handText !== '-') {
    const re = /(\d*)([A-Za-z])/y;
    let pos = 0;
    while (pos < handText.length) {
      re.lastIndex = pos;
      const m = re.exec(handText);
      if (!m) return fail('bad_hand', `cannot read hand '${handText}'`);
      const [, digits = '', ch = ''] = m;
      const type = letterType(ch);
      if (type === 0 || type === KING) return fail('bad_hand', `'${ch}' cannot be held in hand`);
      const count = digits === '' ? 1 : Number(digits);
      if (digits.length > 2 || count < 1) return fail('bad_hand', `bad count '${digits}' in hand`);
      const hand = hands[ch === ch.toUpperCase() ? 0 : 1];
      if (hand[type] !== 0) return fail('bad_hand', `'${ch}' appears twice in hand`);
      hand[type] = count;
      pos = re.lastIndex;
    }
  }
  let moveNumber = 1;
  if (numberText !== undefined) {
    if (!/^\d{1,6}$/.test(numberText) || Number(numberText) < 1)
      return fail('bad_move_number', `move number must be a positive integer, got '${numberText}'`);
    moveNumber = Number(numberText);
  }
  return ok({ squares, hands, side: sideText === 'b' ? 0 : 1, moveNumber });
}

/** Checks that a setup is a position that can arise in a game (RULES.md), then builds it. */
export function positionFromSetup(setup: Setup): Result<Position, SfenError> {
  const kings = [0, 0];
  const pawnColumns = new Set<string>();
  for (const [i, piece] of setup.squares.entries()) {
    if (piece === EMPTY) continue;
    const type = typeOf(piece);
    const color = colorOf(piece);
    if (type === KING && ++kings[color]! > 1)
      return fail('too_many_kings', `${color ? 'gote' : 'sente'} has two kings`);
    const s = SQUARES[i] as number;
    if (isDeadDrop(type, color, s)) return fail('dead_piece', `the piece on ${squareName(s)} could never move`);
    if (type === PAWN) {
      const key = `${color}:${i % 9}`;
      if (pawnColumns.has(key)) return fail('nifu', 'two unpromoted pawns of one side on a file');
      pawnColumns.add(key);
    }
  }
  const pos = Position.unchecked(setup);
  const counts = pos.materialCounts();
  for (const type of [...HAND_TYPES, KING]) {
    const total = PIECE_TOTALS[type] as number;
    if ((counts[type] as number) > total)
      return fail(
        'too_many_pieces',
        `${counts[type]} pieces of type ${LETTERS[unpromote(type)]}, at most ${total} exist`,
      );
  }
  if (pos.opponentInCheck()) return fail('opponent_in_check', 'the side not to move is in check');
  return ok(pos);
}

export function parseSfen(text: string): Result<Position, SfenError> {
  const setup = parseSfenSetup(text);
  return setup.ok ? positionFromSetup(setup.value) : setup;
}

/** Each piece code's SFEN letters ('' for codes no piece has). */
const PIECE_SFEN: readonly string[] = Array.from({ length: 32 }, (_, p) => {
  const type = typeOf(p);
  const letter = LETTERS[unpromote(type)];
  if (p === EMPTY || letter === undefined || letter === ' ') return '';
  return (type > KING ? '+' : '') + (colorOf(p) === 0 ? letter : letter.toLowerCase());
});
const HAND_LETTERS: readonly (readonly string[])[] = [
  HAND_TYPES.map((t) => LETTERS[t] as string),
  HAND_TYPES.map((t) => (LETTERS[t] as string).toLowerCase()),
];
const SLASH = 47;
const DIGIT_0 = 48;
/** Reused for every call: the board is written as character codes, then made one string. */
const boardCodes: number[] = [];

/**
 * The position's SFEN. It is written once a move on the server (each verdict records the
 * position), so the board goes in as character codes made into one string at the end, not
 * as dozens of concatenated pieces of strings.
 */
export function toSfen(pos: Position): string {
  const codes = boardCodes;
  codes.length = 0;
  for (let r = 0; r < 9; r++) {
    if (r > 0) codes.push(SLASH);
    let empty = 0;
    for (let c = 0; c < 9; c++) {
      const p = pos.board[SQUARES[r * 9 + c] as number] as number;
      if (p === EMPTY) {
        empty++;
        continue;
      }
      if (empty) codes.push(DIGIT_0 + empty);
      empty = 0;
      const text = PIECE_SFEN[p] as string;
      for (let i = 0; i < text.length; i++) codes.push(text.charCodeAt(i));
    }
    if (empty) codes.push(DIGIT_0 + empty);
  }
  let hand = '';
  for (const color of [0, 1] as const) {
    const letters = HAND_LETTERS[color] as readonly string[];
    for (let i = 0; i < HAND_TYPES.length; i++) {
      const n = pos.hand(color, HAND_TYPES[i] as number);
      if (n === 0) continue;
      hand += (n > 1 ? n : '') + (letters[i] as string);
    }
  }
  return `${String.fromCharCode.apply(null, codes)} ${pos.side === 0 ? 'b' : 'w'} ${hand || '-'} ${pos.moveNumber}`;
}

export function startPosition(): Position {
  const parsed = parseSfen(START_SFEN);
  if (!parsed.ok) throw new Error('start position must parse');
  return parsed.value;
}

/**
 * The side to move named by a SFEN, without parsing the rest: gote when its second field is
 * exactly `w`, else sente. Found without splitting, as it runs several times a move.
 */
export function sideOfSfen(sfen: string): ColorName {
  const at = sfen.indexOf(' ') + 1;
  const gote =
    at > 0 && sfen.charCodeAt(at) === 119 /* w */ && (at + 1 === sfen.length || sfen.charCodeAt(at + 1) === 32);
  return gote ? 'gote' : 'sente';
}
