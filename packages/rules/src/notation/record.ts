/**
 * A game record as a plain value, shared by the CSA and KIF parsers and exporters: the
 * start position as SFEN, the moves as USI text, and what the file says around them
 * (ending, players, headers, times, comments). Nothing here judges legality: a record
 * may hold an illegal move, and replay.ts reports it.
 *
 * Also the small mechanical board the parsers and exporters track moves on. It is not
 * the engine's Position on purpose: it must follow illegal moves (a drop of a piece not
 * in hand, a capture of one's own piece) without breaking, so replay can name the ply.
 */
import { HANDICAP_SFENS, HANDICAPS, type Handicap } from '../handicaps.js';
import { parseSfen, positionFromSetup, toSfen } from '../sfen.js';
import { type Color, canPromoteType, err, KING, ok, PROMOTED, type Result, unpromote } from '../types.js';

/** Endings a record can state (CSA `%` lines, KIF 投了 etc.), plus `other` for the unknown. */
export const ENDINGS = [
  'toryo',
  'chudan',
  'sennichite',
  'oute_sennichite',
  'tsumi',
  'fuzumi',
  'kachi',
  'hikiwake',
  'time_up',
  'illegal_move',
  '+illegal_action',
  '-illegal_action',
  'jishogi',
  'max_moves',
  'matta',
  'error',
  'other',
] as const;
export type EndingKind = (typeof ENDINGS)[number];

export interface Ending {
  readonly kind: EndingKind;
  /** The ending as the file wrote it (`%TORYO`, `投了`), so an exporter can keep it. */
  readonly raw: string;
  /** Seconds the side to move spent before the ending, when recorded. */
  readonly seconds: number | null;
}

/** Header fields both formats know, under one name each. */
export const INFO_KEYS = [
  'event',
  'site',
  'start_time',
  'end_time',
  'opening',
  /** KIF 表題: the title of a title match, free text. */
  'title',
  'note',
  /** CSA V2 `$TIME_LIMIT` (hh:mm+ss). */
  'time_limit',
  /** CSA V3 `$TIME` (total+byoyomi+increment, seconds). */
  'time',
  /** KIF 持ち時間, free text. */
  'time_control',
  'max_moves',
  'jishogi',
] as const;
export type InfoKey = (typeof INFO_KEYS)[number];

/** A header line of one format that has no common name; only that format's exporter writes it. */
export interface ExtraInfo {
  readonly format: 'csa' | 'kif';
  readonly key: string;
  readonly value: string;
}

/**
 * A comment after ply `ply` (0: before the first move). A line's ending counts as the ply after
 * its last move, so a comment written after the ending (Floodgate's `%KACHI,'* -5000 win`) is
 * the ending's, as the formats' readers attach it.
 */
export interface RecordComment {
  readonly ply: number;
  readonly text: string;
  /**
   * Absent: a comment on its move, which readers show with the move (KIF `*`, CSA `'*`, JKF
   * `comments`). `note`: a line readers skip (CSA `'`, KIF `#`), kept so an export says it again
   * where it stood and skipped again.
   */
  readonly kind?: 'note';
}

/**
 * The result a record states apart from its ending line: KIF's closing line `まで64手で後手の勝ち`,
 * which names the winner even when the loser was not the side to move (a resignation on the
 * opponent's turn), where an ending word always speaks of the side to move.
 */
export interface StatedResult {
  /** null: a draw. */
  readonly winner: Color | null;
  /** The line as written, without `まで…手で`. */
  readonly text: string;
}

/**
 * Another line of play (KIF 変化, JKF forks): it replaces move `ply` (1-based) of the line it
 * hangs from and goes on from there. Its comments carry absolute plies, as the main line's do;
 * its own variations replace moves after its first.
 */
export interface RecordVariation {
  readonly ply: number;
  readonly moves: readonly string[];
  readonly times: readonly (number | null)[];
  readonly comments: readonly RecordComment[];
  readonly ending: Ending | null;
  readonly variations: readonly RecordVariation[];
}

export interface GameRecord {
  /** Start position; move number 1. `handicapOf(sfen)` names a standard handicap. */
  readonly sfen: string;
  readonly moves: readonly string[];
  /** Seconds spent on each move (same length as `moves`), null where not recorded. */
  readonly times: readonly (number | null)[];
  readonly ending: Ending | null;
  /** The CSA server's `'summary:` comment, without the prefix. */
  readonly summary: string | null;
  readonly players: { readonly sente: string | null; readonly gote: string | null };
  readonly info: Readonly<Partial<Record<InfoKey, string>>>;
  readonly extraInfo: readonly ExtraInfo[];
  readonly comments: readonly RecordComment[];
  /** The closing result line (KIF/KI2 `まで…`), when there is one. */
  readonly result?: StatedResult | null;
  /** Variations of the main line, in the order the file gives them. */
  readonly variations?: readonly RecordVariation[];
}

export const RECORD_ERRORS = [
  'too_large',
  'too_many_moves',
  'bad_encoding',
  'unknown_format',
  'bad_line',
  'bad_position',
  'bad_handicap',
  'missing_position',
  'missing_side',
  'bad_move',
  'no_piece',
  'unknown_piece',
  'piece_mismatch',
  'wrong_turn',
  'bad_time',
  /** KIF, KI2: a move that no legal move matches, or that several match */
  'ambiguous_move',
  /** The file is a format this package does not read (named in the message). */
  'unsupported_format',
] as const;
export type RecordErrorCode = (typeof RECORD_ERRORS)[number];
export interface RecordError {
  readonly code: RecordErrorCode;
  /** 1-based line of the input, 0 when the error is not tied to a line. */
  readonly line: number;
  readonly message: string;
}
export const recordError = (code: RecordErrorCode, line: number, message: string): { ok: false; error: RecordError } =>
  err({ code, line, message });

/** Bounds on input so hostile files cannot exhaust memory or time. */
export const MAX_RECORD_CHARS = 4_000_000;
export const MAX_LINE_CHARS = 20_000;
/** Below the Position undo stack (4096 plies), far above any real game. */
export const MAX_RECORD_MOVES = 3000;

/** A record under construction by a parser; it is a GameRecord once returned. */
export interface RecordDraft {
  sfen: string;
  moves: string[];
  times: (number | null)[];
  ending: Ending | null;
  summary: string | null;
  players: { sente: string | null; gote: string | null };
  info: Partial<Record<InfoKey, string>>;
  extraInfo: ExtraInfo[];
  comments: RecordComment[];
  result: StatedResult | null;
  variations: VariationDraft[];
}

/** A variation under construction by a parser. */
export interface VariationDraft {
  ply: number;
  moves: string[];
  times: (number | null)[];
  comments: RecordComment[];
  ending: Ending | null;
  variations: VariationDraft[];
}

export function newDraft(sfen: string): RecordDraft {
  return {
    result: null,
    variations: [],
    sfen,
    moves: [],
    times: [],
    ending: null,
    summary: null,
    players: { sente: null, gote: null },
    info: {},
    extraInfo: [],
    comments: [],
  };
}

const sameStart = (a: string, b: string): boolean =>
  a.split(' ').slice(0, 3).join(' ') === b.split(' ').slice(0, 3).join(' ');

/** The standard handicap a start position is, or null (even game or another position). */
export function handicapOf(sfen: string): Handicap | null {
  for (const h of HANDICAPS) if (sameStart(sfen, HANDICAP_SFENS[h])) return h;
  return null;
}

// --- the mechanical board -------------------------------------------------------------

/** squares: 81 piece codes in SFEN order (index = (rank-1)*9 + 9-file); hands[color][type]. */
export interface TrackBoard {
  readonly squares: number[];
  readonly hands: [number[], number[]];
  side: Color;
}

export const squareIndex = (file: number, rank: number): number => (rank - 1) * 9 + (9 - file);
export const fileOfIndex = (i: number): number => 9 - (i % 9);
export const rankOfIndex = (i: number): number => ((i / 9) | 0) + 1;
const RANK_LETTERS = 'abcdefghi';
export const usiSquare = (i: number): string => `${fileOfIndex(i)}${RANK_LETTERS[rankOfIndex(i) - 1]}`;
export const USI_DROP_LETTERS = ' PLNSBRG';

/** A board to track moves on, from a start SFEN that must be a valid position. */
export function trackBoard(sfen: string): Result<TrackBoard, RecordError> {
  const setup = parseSfen(sfen);
  if (!setup.ok) return recordError('bad_position', 0, `start position: ${setup.error.message}`);
  const s = setup.value.toSetup();
  return ok({ squares: [...s.squares], hands: [[...s.hands[0]], [...s.hands[1]]], side: s.side });
}

/** The validated SFEN (move number 1) of a board built by a parser. */
export function boardSfen(board: TrackBoard, line: number): Result<string, RecordError> {
  const pos = positionFromSetup({ squares: board.squares, hands: board.hands, side: board.side, moveNumber: 1 });
  if (pos.ok) return ok(toSfen(pos.value));
  // training setups (九歩) put pawns on one file: the rules, and so every game here, have no such position
  const why = pos.error.code === 'nifu' ? ': a start the rules forbid in play is not read as a game' : '';
  return recordError('bad_position', line, `${pos.error.message}${why}`);
}

/** A parsed USI move on the track board's squares; null when malformed. */
export interface TrackMove {
  readonly drop: number;
  readonly from: number;
  readonly to: number;
  readonly promote: boolean;
}

const usiIndex = (text: string, at: number): number => {
  const file = text.charCodeAt(at) - 48;
  const rank = text.charCodeAt(at + 1) - 96;
  return file >= 1 && file <= 9 && rank >= 1 && rank <= 9 ? squareIndex(file, rank) : -1;
};

export const cloneBoard = (b: TrackBoard): TrackBoard => ({
  squares: [...b.squares],
  hands: [[...b.hands[0]], [...b.hands[1]]],
  side: b.side,
});

export function readUsi(text: string): TrackMove | null {
  if (text.length === 4 && text[1] === '*') {
    const drop = USI_DROP_LETTERS.indexOf(text[0] ?? ' ');
    const to = usiIndex(text, 2);
    return drop > 0 && to >= 0 ? { drop, from: -1, to, promote: false } : null;
  }
  if (text.length !== 4 && !(text.length === 5 && text[4] === '+')) return null;
  const from = usiIndex(text, 0);
  const to = usiIndex(text, 2);
  return from >= 0 && to >= 0 && from !== to ? { drop: 0, from, to, promote: text.length === 5 } : null;
}

export function dropUsi(type: number, to: number): string {
  return `${USI_DROP_LETTERS[type]}*${usiSquare(to)}`;
}

export function boardUsi(from: number, to: number, promote: boolean): string {
  return `${usiSquare(from)}${usiSquare(to)}${promote ? '+' : ''}`;
}

/**
 * Plays a move on the track board without judging it: the mover is the side to move,
 * a capture goes to the mover's hand unpromoted, a drop takes from the hand even below
 * zero. Returns false only when a board move has no piece on its origin.
 */
export function applyTrack(board: TrackBoard, m: TrackMove): boolean {
  const us = board.side;
  if (m.drop > 0) {
    board.hands[us][m.drop] = (board.hands[us][m.drop] ?? 0) - 1;
    board.squares[m.to] = m.drop | (us << 4);
  } else {
    const piece = board.squares[m.from] ?? 0;
    if (piece === 0) return false;
    const captured = board.squares[m.to] ?? 0;
    const ctype = unpromote(captured & 15);
    if (captured !== 0 && ctype !== KING) board.hands[us][ctype] = (board.hands[us][ctype] ?? 0) + 1;
    board.squares[m.from] = 0;
    board.squares[m.to] = m.promote && canPromoteType(piece & 15) ? piece + PROMOTED : piece;
  }
  board.side = (us ^ 1) as Color;
  return true;
}
