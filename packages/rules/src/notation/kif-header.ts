/**
 * The header of a KIF or KI2 record, which the two formats share: key：value lines (the
 * colon full or half width), 手合割, and a BOD diagram (board rows, hands, side to move) for
 * any other start; then the closing line `まで64手で後手の勝ち` after the moves.
 */
import { START_SFEN } from '../sfen.js';
import { type Color, KING, ok, type Result } from '../types.js';
import { readKifInfo } from './cross-format.js';
import { digit, KIF_STARTS, pieceType } from './kif-words.js';
import {
  boardSfen,
  type RecordDraft,
  type RecordError,
  recordError,
  type StatedResult,
  type TrackBoard,
  trackBoard,
} from './record.js';

type Fail = { ok: false; error: RecordError };

export interface HeaderState {
  readonly record: RecordDraft;
  handicap: string | null;
  bod: { rows: number[][]; hands: [number[], number[]]; side: Color; seen: boolean };
}

export const newHeader = (record: RecordDraft): HeaderState => ({
  record,
  handicap: null,
  bod: { rows: [], hands: [new Array(8).fill(0), new Array(8).fill(0)], side: 0, seen: false },
});

/** A count after a piece in hand: 二, 十, 十八, or digits (some programs write 歩2). */
function count(text: string): number {
  if (text === '') return 1;
  if (/^[0-9０-９]+$/.test(text)) return Number(text.replace(/[０-９]/g, (c) => String(c.charCodeAt(0) - 0xff10)));
  const ten = text.indexOf('十');
  if (ten < 0) return text.length === 1 ? digit(text) : 0;
  const tens = ten === 0 ? 1 : digit(text[0]);
  const ones = text.length === ten + 1 ? 0 : digit(text[ten + 1]);
  return text.length > ten + 2 ? 0 : tens * 10 + ones;
}

/** `飛　角　歩十八` or, as some programs write, without blanks (`飛角歩十八`). */
function hands(text: string, line: number): Result<number[], RecordError> {
  const hand = new Array<number>(8).fill(0);
  const body = text.trim();
  if (body === 'なし' || body === '') return ok(hand);
  for (const item of body.match(/[^\s\u3000一二三四五六七八九十0-9０-９][一二三四五六七八九十0-9０-９]*/g) ?? []) {
    const type = pieceType(item[0] ?? '');
    const n = count(item.slice(1));
    if (type <= 0 || type >= KING || n <= 0) return recordError('bad_position', line, `bad hand item '${item}'`);
    hand[type]! += n;
  }
  return ok(hand);
}

/** A BOD rank `|v香v桂 ・...|一`: nine cells of a mark (' ' or 'v') and a piece. */
function bodRow(st: HeaderState, text: string, line: number): Fail | null {
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
      if (type <= 0 || (mark !== ' ' && mark !== 'v' && mark !== '\u3000'))
        return recordError('bad_position', line, `bad cell '${mark}${name}'`);
      row.push(type | ((mark === 'v' ? 1 : 0) << 4));
    }
  }
  st.bod.rows.push(row);
  st.bod.seen = true;
  return null;
}

/** A header line; a line that is none is an error. */
export function headerLine(st: HeaderState, text: string, line: number): Fail | null {
  if (text.startsWith('|')) return bodRow(st, text, line);
  if (/^\s*[9９]\s*[8８]/.test(text) || text.startsWith('+-') || /^手数[＝=]/.test(text)) return null;
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
  else readKifInfo(st.record, key, value);
  return null;
}

/** Ends the header: the start position from the BOD diagram, else from 手合割 (平手 when absent). */
export function startBoard(st: HeaderState, line: number): Result<TrackBoard, RecordError> {
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
  st.record.sfen = sfen;
  return trackBoard(sfen);
}

const SIDE_NAMES: Readonly<Record<string, Color>> = { 先手: 0, 下手: 0, 後手: 1, 上手: 1 };

/**
 * The closing line's result (`まで64手で後手の勝ち`, `まで100手で千日手`, `まで50手で中断`); null
 * when the line states no result. The text is kept as written after `まで…手で`.
 */
export function closingResult(text: string): StatedResult | null {
  const body = text.replace(/^まで、?\s*(?:[0-9]+手で?)?/, '').replace(/[\s\u3000]/g, '');
  const win = /(先手|後手|上手|下手)の(?:[^の]*)?勝ち$/.exec(body);
  if (win) {
    const side = SIDE_NAMES[win[1] as string] as Color;
    return { winner: side, text: body };
  }
  const loss = /(先手|後手|上手|下手)の(?:[^の]*)?負け$/.exec(body);
  if (loss) return { winner: ((SIDE_NAMES[loss[1] as string] as Color) ^ 1) as Color, text: body };
  if (/千日手|持将棋|引き分け|引分/.test(body) && !/連続王手/.test(body)) return { winner: null, text: body };
  return null;
}
