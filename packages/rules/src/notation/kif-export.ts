/** A GameRecord written as KIF, UTF-8, in the vocabulary the parser reads (kif.ts), variations included. */
import { type Color, ok, type Result } from '../types.js';
import { csaOnlyHeaders, DECLARATION_NOTE, declarationFailed } from './cross-format.js';
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
} from './kif-words.js';
import {
  applyTrack,
  cloneBoard,
  type Ending,
  type GameRecord,
  type InfoKey,
  type RecordComment,
  type RecordError,
  type RecordVariation,
  readUsi,
  type StatedResult,
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

function endingWord(end: Ending, mover: Color): string {
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

/** A line of play as the writer walks it: the main line, or a variation with its first ply. */
interface Line {
  readonly ply: number;
  readonly moves: readonly string[];
  readonly times: readonly (number | null)[];
  readonly comments: readonly RecordComment[];
  readonly ending: Ending | null;
  readonly variations: readonly RecordVariation[];
}

/** Where a line starts: the board before its first move, the last destination (for 同), each side's total time. */
interface LineStart {
  readonly board: TrackBoard;
  readonly lastTo: number;
  readonly totals: readonly [number, number];
}

/**
 * Writes a line and then its variations, the latest branch first and each followed by its own
 * (Kifu for Windows' order, which readers rely on: a 変化 hangs from the last line written that
 * reaches it). A move with alternatives ends in `+`.
 */
function writeLine(out: string[], line: Line, start: LineStart, result?: StatedResult | null): RecordError | null {
  const board = cloneBoard(start.board);
  const totals: [number, number] = [...start.totals];
  let lastTo = start.lastTo;
  const branched = new Set(line.variations.map((v) => v.ply));
  const comments = (ply: number): void => {
    out.push(...kifCommentLines(line.comments, ply));
  };
  comments(line.ply - 1);
  for (const [i, usi] of line.moves.entries()) {
    const ply = line.ply + i;
    const text = moveText(board, usi, lastTo);
    const m = readUsi(usi);
    if (text === null || m === null)
      return { code: 'bad_move', line: 0, message: `move ${ply} '${usi}' cannot be written` };
    const time = line.times[i] ?? null;
    const side = board.side;
    applyTrack(board, m);
    lastTo = m.to;
    totals[side] += Math.round(time ?? 0);
    const clockText = time === null ? '' : `   ${clock(Math.round(time), totals[side])}`;
    out.push(`${String(ply).padStart(4)} ${text}${clockText}${branched.has(ply) ? '+' : ''}`);
    comments(ply);
  }
  const endPly = line.ply + line.moves.length;
  if (line.ending) {
    const s = line.ending.seconds;
    const side = board.side;
    totals[side] += Math.round(s ?? 0);
    const time = s === null ? '' : `   ${clock(Math.round(s), totals[side])}`;
    // a failed declaration is the declarer's foul (反則負け), as readers score it, and a note says what it was
    const failed = result !== undefined && declarationFailed({ ending: line.ending, result }, side);
    const word = failed ? '反則負け' : endingWord(line.ending, side);
    out.push(`${String(endPly).padStart(4)} ${word}${time}${branched.has(endPly) ? '+' : ''}`);
    if (failed) out.push(`#${DECLARATION_NOTE}`);
    comments(endPly);
  }
  return null;
}

function writeVariations(out: string[], line: Line, start: LineStart): RecordError | null {
  // the boards along this line, to start each variation from
  const starts: LineStart[] = [];
  const board = cloneBoard(start.board);
  const totals: [number, number] = [...start.totals];
  let lastTo = start.lastTo;
  for (const [i, usi] of line.moves.entries()) {
    starts.push({ board: cloneBoard(board), lastTo, totals: [...totals] });
    const m = readUsi(usi);
    if (m === null) return { code: 'bad_move', line: 0, message: `move ${line.ply + i} '${usi}' cannot be written` };
    totals[board.side] += Math.round(line.times[i] ?? 0);
    applyTrack(board, m);
    lastTo = m.to;
  }
  starts.push({ board, lastTo, totals });
  const latestFirst = [...line.variations].sort((a, b) => b.ply - a.ply);
  for (const v of latestFirst) {
    const at = starts[v.ply - line.ply];
    if (at === undefined || v.ply < line.ply)
      return { code: 'bad_move', line: 0, message: `a variation at move ${v.ply} outside its line` };
    out.push('', `変化：${v.ply}手`);
    const failed = writeLine(out, v, at) ?? writeVariations(out, v, at);
    if (failed) return failed;
  }
  return null;
}

/** `まで64手で後手の勝ち`: the closing line, from the result the record states. */
function closingLine(record: GameRecord): string | null {
  if (!record.result) return null;
  return `まで${record.moves.length}手で${record.result.text}`;
}

/** The comments of `ply` as KIF and KI2 write them: `*` a comment on the move, `#` a note readers skip. */
export function kifCommentLines(comments: readonly RecordComment[], ply: number): string[] {
  return comments
    .filter((c) => c.ply === ply)
    .flatMap((c) => c.text.split(/\r?\n/).map((text) => `${c.kind === 'note' ? '#' : '*'}${text}`));
}

/** The header KIF and KI2 share: key：value lines, players, 手合割 or a BOD diagram of any other start. */
export function kifHeaderLines(record: GameRecord, board: TrackBoard): string[] {
  const name = kifHandicapName(record.sfen);
  const handicap = name !== null && name !== '平手';
  const out: string[] = [];
  const info = (key: InfoKey): void => {
    const value = record.info[key];
    if (value !== undefined) out.push(`${Object.keys(HEADER_KEYS).find((k) => HEADER_KEYS[k] === key)}：${value}`);
  };
  for (const key of [
    'start_time',
    'end_time',
    'title',
    'event',
    'site',
    'time_control',
    'max_moves',
    'jishogi',
  ] as const)
    info(key);
  if (name !== null) out.push(`手合割：${name}`);
  if (record.players.sente !== null) out.push(`${handicap ? '下手' : '先手'}：${record.players.sente}`);
  if (record.players.gote !== null) out.push(`${handicap ? '上手' : '後手'}：${record.players.gote}`);
  for (const key of ['opening', 'note'] as const) info(key);
  for (const extra of record.extraInfo) if (extra.format === 'kif') out.push(`${extra.key}：${extra.value}`);
  for (const [key, value] of csaOnlyHeaders(record)) out.push(`${key}：${value}`);
  if (name === null) out.push(...bod(board));
  return out;
}

/** The record as KIF text (UTF-8 when encoded); an invalid start or unplayable move is an error. */
export function exportKif(record: GameRecord): Result<string, RecordError> {
  const tracked = trackBoard(record.sfen);
  if (!tracked.ok) return tracked;
  const board = tracked.value;
  const out = ['#KIF version=2.0 encoding=UTF-8', ...kifHeaderLines(record, board)];
  out.push('手数----指手---------消費時間--');
  const main: Line = { ...record, ply: 1, variations: record.variations ?? [] };
  const start: LineStart = { board, lastTo: -1, totals: [0, 0] };
  const failed = writeLine(out, main, start, record.result ?? null);
  if (failed) return { ok: false, error: failed };
  const closing = closingLine(record);
  if (closing !== null) out.push(closing);
  const variations = writeVariations(out, main, start);
  if (variations) return { ok: false, error: variations };
  return ok(`${out.join('\n')}\n`);
}
