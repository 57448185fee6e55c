/** A GameRecord written as KIF, UTF-8, in the vocabulary the parser reads (kif.ts). */
import { type Color, ok, type Result } from '../types.js';
import {
  BOD_NAMES,
  countKanji,
  ENDING_WORDS,
  FOUL_WORDS,
  HEADER_KEYS,
  KAN,
  kifHandicapName,
  NAMES,
  ZEN,
} from './kif.js';
import {
  applyTrack,
  type GameRecord,
  type InfoKey,
  type RecordError,
  readUsi,
  recordError,
  type TrackBoard,
  trackBoard,
} from './record.js';

// --- export ---------------------------------------------------------------------------

const two = (n: number): string => String(n).padStart(2, '0');
const clock = (move: number, total: number): string =>
  `(${String(Math.floor(move / 60)).padStart(2)}:${two(move % 60)}/${two(Math.floor(total / 3600))}:${two(Math.floor(total / 60) % 60)}:${two(total % 60)})`;
const squareText = (i: number): string => `${ZEN[8 - (i % 9)]}${KAN[(i / 9) | 0]}`;

function handText(hand: readonly number[]): string {
  const items = [6, 5, 7, 4, 3, 2, 1].filter((t) => (hand[t] ?? 0) > 0);
  return items.map((t) => `${BOD_NAMES[t]}${countKanji(hand[t] ?? 0)}`).join('　') || 'なし';
}

/** A BOD diagram, for starts that are neither the even game nor a named handicap. */
function bod(board: TrackBoard): string[] {
  const rows = Array.from({ length: 9 }, (_, r) => {
    const cells = board.squares
      .slice(r * 9, r * 9 + 9)
      .map((p) => (p === 0 ? ' ・' : `${p >> 4 ? 'v' : ' '}${BOD_NAMES[p & 15]}`));
    return `|${cells.join('')}|${KAN[r]}`;
  });
  const rule = '+---------------------------+';
  return [
    `後手の持駒：${handText(board.hands[1])}`,
    '  ９ ８ ７ ６ ５ ４ ３ ２ １',
    rule,
    ...rows,
    rule,
    `先手の持駒：${handText(board.hands[0])}`,
    board.side === 0 ? '先手番' : '後手番',
  ];
}

function endingWord(record: GameRecord, mover: Color): string {
  const end = record.ending;
  if (!end) return '';
  const word = ENDING_WORDS.find(([w, kind]) => w === end.raw && kind === end.kind);
  if (word) return word[0];
  if (end.kind === '+illegal_action' || end.kind === '-illegal_action') {
    const loser = (end.kind === '+illegal_action' ? 0 : 1) === mover ? 'mover' : 'opponent';
    const foul = FOUL_WORDS.find(([w, l]) => w === end.raw && l === loser);
    return foul?.[0] ?? (loser === 'mover' ? '反則負け' : '反則勝ち');
  }
  return ENDING_WORDS.find(([, kind]) => kind === end.kind)?.[0] ?? '中断';
}

function moveText(board: TrackBoard, usi: string, lastTo: number): string | null {
  const m = readUsi(usi);
  if (!m) return null;
  const dest = m.to === lastTo ? '同　' : squareText(m.to);
  if (m.drop > 0) return `${dest}${NAMES[m.drop]}打`;
  const piece = (board.squares[m.from] ?? 0) & 15;
  if (piece === 0) return null;
  return `${dest}${NAMES[piece]}${m.promote ? '成' : ''}(${9 - (m.from % 9)}${((m.from / 9) | 0) + 1})`;
}

/** The record as KIF text (UTF-8 when encoded); an invalid start or unplayable move is an error. */
export function exportKif(record: GameRecord): Result<string, RecordError> {
  const tracked = trackBoard(record.sfen);
  if (!tracked.ok) return tracked;
  const board = tracked.value;
  const name = kifHandicapName(record.sfen);
  const handicap = name !== null && name !== '平手';
  const out = ['#KIF version=2.0 encoding=UTF-8'];
  const info = (key: InfoKey): void => {
    const value = record.info[key];
    if (value !== undefined) out.push(`${Object.keys(HEADER_KEYS).find((k) => HEADER_KEYS[k] === key)}：${value}`);
  };
  for (const key of ['start_time', 'end_time', 'event', 'site', 'time_control'] as const) info(key);
  if (name !== null) out.push(`手合割：${name}`);
  if (record.players.sente !== null) out.push(`${handicap ? '下手' : '先手'}：${record.players.sente}`);
  if (record.players.gote !== null) out.push(`${handicap ? '上手' : '後手'}：${record.players.gote}`);
  for (const key of ['opening', 'note'] as const) info(key);
  for (const extra of record.extraInfo) if (extra.format === 'kif') out.push(`${extra.key}：${extra.value}`);
  if (name === null) out.push(...bod(board));
  out.push('手数----指手---------消費時間--');
  const comments = (ply: number): void => {
    for (const c of record.comments) if (c.ply === ply) for (const text of c.text.split(/\r?\n/)) out.push(`*${text}`);
  };
  comments(0);
  const totals = [0, 0];
  let lastTo = -1;
  for (const [i, usi] of record.moves.entries()) {
    const text = moveText(board, usi, lastTo);
    if (text === null) return recordError('bad_move', 0, `move ${i + 1} '${usi}' cannot be written`);
    const time = record.times[i] ?? null;
    const side = board.side;
    applyTrack(board, readUsi(usi) as NonNullable<ReturnType<typeof readUsi>>);
    lastTo = readUsi(usi)?.to ?? -1;
    totals[side]! += Math.round(time ?? 0);
    out.push(
      `${String(i + 1).padStart(4)} ${text}${time === null ? '' : `   ${clock(Math.round(time), totals[side] ?? 0)}`}`,
    );
    comments(i + 1);
  }
  if (record.ending) {
    const s = record.ending.seconds;
    const side = board.side;
    totals[side]! += Math.round(s ?? 0);
    const time = s === null ? '' : `   ${clock(Math.round(s), totals[side] ?? 0)}`;
    out.push(`${String(record.moves.length + 1).padStart(4)} ${endingWord(record, side)}${time}`);
  }
  return ok(`${out.join('\n')}\n`);
}
