/**
 * CSA move statements and board lines, shared by the CSA record format (csa.ts) and the CSA
 * server protocol (whose moves and Game_Summary position are the record format's).
 *
 * A CSA move names the piece after the move (`+2822UM`), so promotion is only visible
 * against the piece on the origin square: reading one needs the board it is played on.
 * Nothing here judges legality; a move that can be read but that the rules forbid is the
 * caller's to refuse.
 */
import { type Color, canPromoteType, err, KING, ok, PROMOTED, type Result } from '../types.js';
import {
  boardUsi,
  dropUsi,
  type RecordErrorCode,
  readUsi,
  squareIndex,
  type TrackBoard,
  type TrackMove,
  trackBoard,
} from './record.js';

/** CSA piece codes indexed by the engine's piece type (1 pawn .. 8 king, +8 promoted). */
export const CSA_PIECE_CODES = [
  '',
  'FU',
  'KY',
  'KE',
  'GI',
  'KA',
  'HI',
  'KI',
  'OU',
  'TO',
  'NY',
  'NK',
  'NG',
  'UM',
  'RY',
] as const;
export const csaCodeType = (code: string): number => (CSA_PIECE_CODES as readonly string[]).indexOf(code);

/** Why a CSA move statement cannot be read on its board. */
export interface CsaMoveFault {
  readonly code: Extract<RecordErrorCode, 'bad_move' | 'wrong_turn' | 'unknown_piece' | 'no_piece' | 'piece_mismatch'>;
  readonly message: string;
}

const fault = (code: CsaMoveFault['code'], message: string): Result<string, CsaMoveFault> => err({ code, message });

const MOVE = /^([+-])(\d)(\d)(\d)(\d)([A-Z]{2})$/;

/**
 * A move statement (`+7776FU`, `-0034KA`) of the side to move on `board`, as USI: the piece
 * named must be the one on the origin or its promotion, and only an unpromoted piece other
 * than the king is dropped.
 */
export function csaMoveToUsi(board: TrackBoard, text: string): Result<string, CsaMoveFault> {
  const m = MOVE.exec(text);
  if (!m) return fault('bad_move', `cannot read move '${text.slice(0, 16)}'`);
  const [, sign, f1, r1, f2, r2, code] = m as unknown as [string, string, string, string, string, string, string];
  const color: Color = sign === '+' ? 0 : 1;
  if (color !== board.side) return fault('wrong_turn', `'${text}' is not the side to move`);
  const type = csaCodeType(code);
  if (type <= 0) return fault('unknown_piece', `unknown piece '${code}'`);
  const [fromFile, fromRank, toFile, toRank] = [+f1, +r1, +f2, +r2];
  if (toFile === 0 || toRank === 0 || (fromFile === 0) !== (fromRank === 0))
    return fault('bad_move', `bad square in '${text}'`);
  const to = squareIndex(toFile, toRank);
  if (fromFile === 0) {
    if (type >= KING) return fault('bad_move', `'${code}' cannot be dropped`);
    return ok(dropUsi(type, to));
  }
  const from = squareIndex(fromFile, fromRank);
  const origin = (board.squares[from] ?? 0) & 15;
  if (origin === 0) return fault('no_piece', `no piece on ${f1}${r1}`);
  if (from === to) return fault('bad_move', `'${text}' does not move`);
  const promote = type !== origin && canPromoteType(origin) && type === origin + PROMOTED;
  if (type !== origin && !promote)
    return fault('piece_mismatch', `${CSA_PIECE_CODES[origin]} on ${f1}${r1}, not ${code}`);
  return ok(boardUsi(from, to, promote));
}

const square = (i: number): string => `${9 - (i % 9)}${((i / 9) | 0) + 1}`;

/** A parsed USI move of the side to move on `board` as a CSA statement; null when its origin is empty. */
export function csaMoveText(board: TrackBoard, m: TrackMove): string | null {
  const piece = m.drop || (board.squares[m.from] ?? 0) & 15;
  if (piece === 0) return null;
  const after = m.promote && canPromoteType(piece) ? piece + PROMOTED : piece;
  const from = m.drop ? '00' : square(m.from);
  return `${board.side === 0 ? '+' : '-'}${from}${square(m.to)}${CSA_PIECE_CODES[after]}`;
}

/** The rank lines `P1`..`P9` (` * ` for an empty square), then `P+`/`P-` for each hand that holds pieces. */
export function csaBoardLines(board: TrackBoard): string[] {
  const lines = Array.from({ length: 9 }, (_, r) => {
    const cells = board.squares.slice(r * 9, r * 9 + 9);
    return `P${r + 1}${cells.map((p) => (p === 0 ? ' * ' : `${p >> 4 ? '-' : '+'}${CSA_PIECE_CODES[p & 15]}`)).join('')}`;
  });
  for (const color of [0, 1] as const) {
    let hand = '';
    for (let t = 7; t >= 1; t--) hand += `00${CSA_PIECE_CODES[t]}`.repeat(board.hands[color][t] ?? 0);
    if (hand) lines.push(`P${color ? '-' : '+'}${hand}`);
  }
  return lines;
}

// --- the same on a position given as SFEN, for callers that keep no board ----------------

/** A CSA move statement in the position `sfen`, as USI (see csaMoveToUsi). */
export function usiOfCsaMove(sfen: string, text: string): Result<string, CsaMoveFault> {
  const board = trackBoard(sfen);
  if (!board.ok) return fault('bad_move', board.error.message);
  return csaMoveToUsi(board.value, text);
}

/** A USI move in the position `sfen`, as a CSA statement; null when it cannot be written. */
export function csaOfUsiMove(sfen: string, usi: string): string | null {
  const board = trackBoard(sfen);
  const m = readUsi(usi);
  return board.ok && m !== null ? csaMoveText(board.value, m) : null;
}

/** The position `sfen` as CSA lines: the ranks, the hands that hold pieces, then `+` or `-` to move; null for a bad SFEN. */
export function csaPositionLines(sfen: string): string[] | null {
  const board = trackBoard(sfen);
  if (!board.ok) return null;
  return [...csaBoardLines(board.value), board.value.side === 0 ? '+' : '-'];
}
