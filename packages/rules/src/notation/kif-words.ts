/**
 * The words of KIF and KI2 records (Kakinoki's format, kakinoki.o.oo7.jp/kif_format.html):
 * piece names, digits, handicap names, ending words and header keys, shared by the
 * readers (kif.ts, ki2.ts) and the writer (kif-export.ts).
 */
import { HANDICAP_SFENS, type Handicap, RECORD_HANDICAP_SFENS, type RecordHandicap } from '../handicaps.js';
import { START_SFEN } from '../sfen.js';
import { KING } from '../types.js';
import type { EndingKind, InfoKey } from './record.js';

// --- vocabulary -----------------------------------------------------------------------

/** Piece names by engine type (index); BOD diagrams use the one-character forms. */
export const NAMES = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '成香', '成桂', '成銀', '馬', '龍'];
export const BOD_NAMES = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '杏', '圭', '全', '馬', '龍'];
const ALIASES: Readonly<Record<string, number>> = { 王: KING, 竜: 14 };
export function pieceType(name: string): number {
  const i = NAMES.indexOf(name);
  if (i > 0) return i;
  const j = BOD_NAMES.indexOf(name);
  return j > 0 ? j : (ALIASES[name] ?? 0);
}

export const ZEN = '１２３４５６７８９';
export const KAN = '一二三四五六七八九';
/** 1..9 from an ASCII, full-width or kanji digit; 0 otherwise. */
export function digit(ch: string | undefined): number {
  if (ch === undefined) return 0;
  const n = '123456789'.indexOf(ch) + 1 || ZEN.indexOf(ch) + 1 || KAN.indexOf(ch) + 1;
  return n;
}
/** Kanji counts in hands: 二, 十, 十八. */
export function kanjiCount(text: string): number {
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
export const KIF_STARTS: ReadonlyMap<string, string> = new Map([
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
  // the sealed move of an adjourned two-day game (kif.ts), written back as it came
  ['封じ手', 'chudan'],
  ['連続王手の千日手', 'oute_sennichite'],
  ['千日手', 'sennichite'],
  ['不詰', 'fuzumi'],
  ['詰み', 'tsumi'],
  // Kakinoki's list also has the one-character form
  ['詰', 'tsumi'],
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
  表題: 'title',
  備考: 'note',
  // the names tsshogi gives CSA's $MAX_MOVES and $JISHOGI in KIF
  最大手数: 'max_moves',
  持将棋: 'jishogi',
};
