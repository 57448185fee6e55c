/**
 * KIF game records (the format of Kifu for Windows and most shogi GUIs): parsing the
 * main line into a GameRecord (exporting one: kif-export.ts). Variations (変化：) are
 * skipped; a KIF file writes the whole main line first, so parsing stops at the first.
 *
 * A move names the destination, the piece before the move and its origin
 * (`７六歩(77)`, `同　銀(68)`, `２二角成(88)`, `５五角打`); the parser tracks a board to
 * check the piece name and resolve 同, and leaves legality to replay.
 */
import { HANDICAP_SFENS, type Handicap, RECORD_HANDICAP_SFENS, type RecordHandicap } from '../handicaps.js';
import { START_SFEN } from '../sfen.js';
import { type Color, canPromoteType, KING, ok, type Result } from '../types.js';
import {
  applyTrack,
  boardSfen,
  boardUsi,
  dropUsi,
  type EndingKind,
  type GameRecord,
  type InfoKey,
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

// --- vocabulary -----------------------------------------------------------------------

/** Piece names by engine type (index); BOD diagrams use the one-character forms. */
export const NAMES = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '成香', '成桂', '成銀', '馬', '龍'];
export const BOD_NAMES = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '杏', '圭', '全', '馬', '龍'];
const ALIASES: Readonly<Record<string, number>> = { 王: KING, 竜: 14 };
function pieceType(name: string): number {
  const i = NAMES.indexOf(name);
  if (i > 0) return i;
  const j = BOD_NAMES.indexOf(name);
  return j > 0 ? j : (ALIASES[name] ?? 0);
}

export const ZEN = '１２３４５６７８９';
export const KAN = '一二三四五六七八九';
/** 1..9 from an ASCII, full-width or kanji digit; 0 otherwise. */
function digit(ch: string | undefined): number {
  if (ch === undefined) return 0;
  const n = '123456789'.indexOf(ch) + 1 || ZEN.indexOf(ch) + 1 || KAN.indexOf(ch) + 1;
  return n;
}
/** Kanji counts in hands: 二, 十, 十八. */
function kanjiCount(text: string): number {
  if (text === '') return 1;
  const ten = text.indexOf('十');
  if (ten < 0) return text.length === 1 ? digit(text) : 0;
  const tens = ten === 0 ? 1 : digit(text[0]);
  const ones = text.length === ten + 1 ? 0 : digit(text[ten + 1]);
  return text.length > ten + 2 ? 0 : tens * 10 + ones;
}
export const countKanji = (n: number): string =>
  n <= 1 ? '' : n < 10 ? (KAN[n - 1] as string) : `十${KAN[n - 11] ?? ''}`;

export const KIF_HANDICAPS: Readonly<Record<string, Handicap>> = {
  香落ち: 'lance',
  右香落ち: 'right_lance',
  角落ち: 'bishop',
  飛車落ち: 'rook',
  飛香落ち: 'rook_lance',
  二枚落ち: 'two_piece',
  四枚落ち: 'four_piece',
  六枚落ち: 'six_piece',
  八枚落ち: 'eight_piece',
  十枚落ち: 'ten_piece',
};

/** The rest of the 手合割 list: standard handicaps the server does not offer. */
const KIF_RECORD_HANDICAPS: Readonly<Record<string, RecordHandicap>> = {
  三枚落ち: 'three_piece',
  五枚落ち: 'five_piece',
  左五枚落ち: 'left_five_piece',
  左七枚落ち: 'left_seven_piece',
  右七枚落ち: 'right_seven_piece',
};

/**
 * Start positions by 手合割 name. A Map, so that a name such as `constructor` is no entry.
 * The list's own names come before the other names some programs write (飛車香落ち for
 * 飛香落ち; 左香落ち for 香落ち, whose lance is uwate's left one): the exporter writes the
 * first name of a position.
 */
const KIF_STARTS: ReadonlyMap<string, string> = new Map([
  ['平手', START_SFEN],
  ...Object.entries(KIF_HANDICAPS).map(([name, h]): [string, string] => [name, HANDICAP_SFENS[h]]),
  ...Object.entries(KIF_RECORD_HANDICAPS).map(([name, h]): [string, string] => [name, RECORD_HANDICAP_SFENS[h]]),
  ['飛車香落ち', HANDICAP_SFENS.rook_lance],
  ['左香落ち', HANDICAP_SFENS.lance],
]);

/** Board, side to move and hands: what makes two SFENs the same start. */
const startOf = (sfen: string): string => sfen.split(' ').slice(0, 3).join(' ');

/** The 手合割 name of a start position, 平手 included; null for a position the list has no name for. */
export function kifHandicapName(sfen: string): string | null {
  for (const [name, start] of KIF_STARTS) if (startOf(start) === startOf(sfen)) return name;
  return null;
}

/**
 * Ending words. 反則負け says the side to move loses by a foul (CSA's illegal move).
 * 連続王手の千日手, 引き分け, 最大手数, 待った are written for endings KIF has no word for.
 */
export const ENDING_WORDS: readonly (readonly [string, EndingKind])[] = [
  ['投了', 'toryo'],
  ['中断', 'chudan'],
  ['連続王手の千日手', 'oute_sennichite'],
  ['千日手', 'sennichite'],
  ['不詰', 'fuzumi'],
  ['詰み', 'tsumi'],
  ['持将棋', 'jishogi'],
  ['切れ負け', 'time_up'],
  ['時間切れ', 'time_up'],
  ['入玉勝ち', 'kachi'],
  ['反則負け', 'illegal_move'],
  ['引き分け', 'hikiwake'],
  ['最大手数', 'max_moves'],
  ['待った', 'matta'],
  ['エラー', 'error'],
];

/**
 * Ending words that name the loser by the side to move where CSA has no word for the ending:
 * they read as the loser's illegal action, CSA's word for a loss by anything but a move (the
 * server writes so any win it has no reason for). 反則勝ち: the side to move wins by the
 * opponent's foul. 不戦勝 / 不戦敗 (Kakinoki's list): the side to move wins / loses by
 * forfeit, mostly before any move. トライ: the side that just moved reached the opponent's
 * king square under the try rule, so the side to move lost (ElectronShogi, which wrote the
 * word first, writes it after that move and counts the win for the mover).
 */
export const FOUL_WORDS: readonly (readonly [string, 'mover' | 'opponent'])[] = [
  ['反則勝ち', 'opponent'],
  ['不戦勝', 'opponent'],
  ['不戦敗', 'mover'],
  ['トライ', 'mover'],
];

export const HEADER_KEYS: Readonly<Record<string, InfoKey>> = {
  開始日時: 'start_time',
  終了日時: 'end_time',
  棋戦: 'event',
  場所: 'site',
  持ち時間: 'time_control',
  戦型: 'opening',
  備考: 'note',
};

// --- parsing --------------------------------------------------------------------------

type Fail = { ok: false; error: RecordError };

interface State {
  readonly record: RecordDraft;
  /** Built from 手合割 or a BOD diagram; null until the header ends. */
  board: TrackBoard | null;
  handicap: string | null;
  bod: { rows: number[][]; hands: [number[], number[]]; side: Color; seen: boolean };
  lastTo: number;
}

function hands(text: string, line: number): Result<number[], RecordError> {
  const hand = new Array<number>(8).fill(0);
  const body = text.trim();
  if (body === 'なし' || body === '') return ok(hand);
  for (const item of body.split(/[\s\u3000]+/)) {
    const type = pieceType(item[0] ?? '');
    const n = kanjiCount(item.slice(1));
    if (type <= 0 || type >= KING || n <= 0) return recordError('bad_position', line, `bad hand item '${item}'`);
    hand[type]! += n;
  }
  return ok(hand);
}

/** A BOD rank `|v香v桂 ・...|一`: nine cells of a mark (' ' or 'v') and a piece. */
function bodRow(st: State, text: string, line: number): Fail | null {
  const close = text.indexOf('|', 1);
  const cells = text.slice(1, close);
  if (close < 0 || cells.length !== 18 || st.bod.rows.length >= 9)
    return recordError('bad_position', line, 'bad board row');
  const row: number[] = [];
  for (let c = 0; c < 9; c++) {
    const mark = cells[c * 2];
    const name = cells[c * 2 + 1] ?? '';
    if (name === '・') row.push(0);
    else {
      const type = pieceType(name);
      if (type <= 0 || (mark !== ' ' && mark !== 'v'))
        return recordError('bad_position', line, `bad cell '${mark}${name}'`);
      row.push(type | ((mark === 'v' ? 1 : 0) << 4));
    }
  }
  st.bod.rows.push(row);
  st.bod.seen = true;
  return null;
}

function header(st: State, text: string, line: number): Fail | null {
  if (text.startsWith('|')) return bodRow(st, text, line);
  if (/^\s*[9９]\s*[8８]/.test(text) || text.startsWith('+-') || text.startsWith('手数＝')) return null;
  const side = /^(先手|後手|上手|下手)番/.exec(text);
  if (side) {
    st.bod.side = side[1] === '後手' || side[1] === '上手' ? 1 : 0;
    return null;
  }
  const colon = text.search(/[：:]/);
  if (colon <= 0) return recordError('bad_line', line, `cannot read '${text.slice(0, 40)}'`);
  const key = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  const hand = /^(先手|後手|上手|下手)の?持ち?駒$/.exec(key);
  if (hand) {
    const parsed = hands(value, line);
    if (!parsed.ok) return parsed;
    st.bod.hands[hand[1] === '後手' || hand[1] === '上手' ? 1 : 0] = parsed.value;
    st.bod.seen = true;
  } else if (key === '手合割') st.handicap = value;
  else if (key === '先手' || key === '下手') st.record.players.sente = value;
  else if (key === '後手' || key === '上手') st.record.players.gote = value;
  else if (Object.hasOwn(HEADER_KEYS, key)) st.record.info[HEADER_KEYS[key] as InfoKey] = value;
  else st.record.extraInfo.push({ format: 'kif', key, value });
  return null;
}

/** Ends the header: the start position from the BOD diagram, else from 手合割. */
function startBoard(st: State, line: number): Fail | null {
  let sfen = START_SFEN;
  if (st.bod.seen) {
    if (st.bod.rows.length !== 9) return recordError('bad_position', line, 'the board needs nine ranks');
    const sfenText = boardSfen({ squares: st.bod.rows.flat(), hands: st.bod.hands, side: st.bod.side }, line);
    if (!sfenText.ok) return sfenText;
    sfen = sfenText.value;
  } else if (st.handicap !== null) {
    const start = KIF_STARTS.get(st.handicap);
    if (start === undefined) return recordError('bad_handicap', line, `unknown handicap '${st.handicap}'`);
    sfen = start;
  }
  const board = trackBoard(sfen);
  if (!board.ok) return board;
  st.board = board.value;
  st.record.sfen = sfen;
  return null;
}

/** `( 0:01/00:00:01)`: the seconds of this move; the running total is not kept. */
function seconds(rest: string, line: number): Result<number | null, RecordError> {
  const t = /^\(\s*(\d{1,6}):(\d{1,2})(?:\/[\d:\s]{0,20})?\)/.exec(rest.trim());
  if (!t) return /^\+?$/.test(rest.trim()) ? ok(null) : recordError('bad_time', line, `cannot read '${rest.trim()}'`);
  return ok(Number(t[1]) * 60 + Number(t[2]));
}

function ending(st: State, text: string, line: number): Fail | null {
  const word = ENDING_WORDS.find(([w]) => text.startsWith(w));
  const foul = FOUL_WORDS.find(([w]) => text.startsWith(w));
  const raw = word?.[0] ?? foul?.[0];
  if (raw === undefined) return recordError('bad_move', line, `cannot read move '${text.slice(0, 20)}'`);
  const time = seconds(text.slice(raw.length), line);
  if (!time.ok) return time;
  const mover = (st.board as TrackBoard).side;
  const loser = foul?.[1] === 'mover' ? mover : mover ^ 1;
  const kind: EndingKind = word ? word[1] : loser === 0 ? '+illegal_action' : '-illegal_action';
  st.record.ending = { kind, raw, seconds: time.value };
  return null;
}

function move(st: State, text: string, line: number): Fail | null {
  const board = st.board as TrackBoard;
  if (st.record.moves.length >= MAX_RECORD_MOVES) return recordError('too_many_moves', line, 'too many moves');
  let at = 0;
  let to: number;
  if (text[0] === '同') {
    if (st.lastTo < 0) return recordError('bad_move', line, '同 without a previous move');
    to = st.lastTo;
    at = 1;
    while (text[at] === ' ' || text[at] === '\u3000') at++;
  } else {
    const file = digit(text[0]);
    const rank = digit(text[1]);
    if (!file || !rank) return ending(st, text, line);
    to = squareIndex(file, rank);
    at = 2;
  }
  // 成香 成桂 成銀 are two characters; every other name is one
  const two = text[at] === '成' ? pieceType(text.slice(at, at + 2)) : 0;
  const type = two || pieceType(text[at] ?? '');
  if (type <= 0) return recordError('unknown_piece', line, `unknown piece in '${text.slice(0, 20)}'`);
  at += two ? 2 : 1;
  const suffix = /^(不成|成|打|生)?/.exec(text.slice(at))?.[0] ?? '';
  at += suffix.length;
  const origin = /^\((\d)(\d)\)/.exec(text.slice(at));
  let usi: string;
  if (!origin) {
    // KIF gives every board move its origin and writes every drop 打: a move with neither is
    // a damaged line (taking it for a drop would silently play a different game)
    if (suffix !== '打')
      return recordError('bad_move', line, `'${text.slice(0, 20)}' has no origin (xy), and a drop is written 打`);
    if (type >= KING) return recordError('bad_move', line, `'${text.slice(0, 20)}' cannot be a drop`);
    usi = dropUsi(type, to);
  } else {
    at += 4;
    const from = squareIndex(Number(origin[1]), Number(origin[2]));
    const piece = (board.squares[from] ?? 0) & 15;
    if (piece === 0) return recordError('no_piece', line, `no piece on ${origin[1]}${origin[2]}`);
    if (piece !== type) return recordError('piece_mismatch', line, `${NAMES[piece]} on ${origin[1]}${origin[2]}`);
    if (suffix === '成' && !canPromoteType(piece))
      return recordError('bad_move', line, `${NAMES[piece]} cannot promote`);
    if (from === to) return recordError('bad_move', line, 'the move does not move');
    usi = boardUsi(from, to, suffix === '成');
  }
  const time = seconds(text.slice(at), line);
  if (!time.ok) return time;
  applyTrack(board, readUsi(usi) as NonNullable<ReturnType<typeof readUsi>>);
  st.lastTo = to;
  st.record.moves.push(usi);
  st.record.times.push(time.value);
  return null;
}

const MOVE_LINE = /^\s*(\d{1,5})\s+(.*)$/;

export function parseKif(input: string): Result<GameRecord, RecordError> {
  if (input.length > MAX_RECORD_CHARS) return recordError('too_large', 0, 'record too large');
  const st: State = {
    record: newDraft(START_SFEN),
    board: null,
    handicap: null,
    bod: { rows: [], hands: [new Array(8).fill(0), new Array(8).fill(0)], side: 0, seen: false },
    lastTo: -1,
  };
  const lines = input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (raw.length > MAX_LINE_CHARS) return recordError('too_large', line, 'line too long');
    if (raw.startsWith('*')) {
      // a comment keeps its blanks: it round-trips from CSA comments such as `'** 0 `
      st.record.comments.push({ ply: st.record.moves.length, text: raw.slice(1) });
      continue;
    }
    // native trimming (it covers the ideographic space): a trailing-blank regex is quadratic
    const text = raw.trimEnd();
    if (text.startsWith('変化：') || text.startsWith('変化:')) break;
    if (text === '' || text.startsWith('#') || text.startsWith('&') || text.startsWith('まで')) continue;
    const moveLine = MOVE_LINE.exec(text);
    const startsMoves = text.startsWith('手数-') || text.startsWith('手数－');
    if (st.board === null && (moveLine || startsMoves)) {
      const failed = startBoard(st, line);
      if (failed) return failed;
    }
    if (startsMoves) continue;
    let failed: Fail | null;
    if (st.board === null) failed = header(st, text, line);
    // some programs write header lines (終了日時) after the moves
    else if (!moveLine)
      failed = /^[^\s：]+：/.test(text)
        ? header(st, text, line)
        : recordError('bad_line', line, `cannot read '${text.slice(0, 40)}'`);
    else if (st.record.ending) failed = recordError('bad_move', line, 'a move after the ending');
    else if (Number(moveLine[1]) !== st.record.moves.length + 1)
      // a lost or repeated line would otherwise shift every later move to the other side
      failed = recordError('bad_move', line, `move ${moveLine[1]} where move ${st.record.moves.length + 1} was due`);
    else failed = move(st, (moveLine[2] ?? '').replace(/^[▲△☗☖]/, ''), line);
    if (failed) return failed;
  }
  if (st.board === null) {
    const failed = startBoard(st, lines.length);
    if (failed) return failed;
  }
  return ok(st.record);
}
