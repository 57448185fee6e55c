/**
 * JKF, the JSON kifu format of Kifu for JS (github.com/na2hiro/Kifu-for-JS, packages/
 * json-kifu-format): reading one into a GameRecord and writing one. A JKF holds the header
 * under KIF's keys, the start as a preset (`HIRATE`, `KY`, ... `OTHER` with the board), and
 * the moves as nodes: `moves[0]` the start (comments only), then a move or a `special`
 * (CSA's ending names), each with its time, comments and `forks`, the other lines that
 * replace that node.
 */
import { HANDICAP_SFENS, RECORD_HANDICAP_SFENS } from '../handicaps.js';
import { START_SFEN } from '../sfen.js';
import { type Color, canPromoteType, KING, ok, type Result } from '../types.js';
import {
  csaOnlyHeaders,
  DECLARATION_NOTE,
  DECLARER_FOUL,
  declarationFailed,
  readDeclaration,
  readKifInfo,
} from './cross-format.js';
import { CSA_PIECE_CODES, csaCodeType } from './csa-move.js';
import { HEADER_KEYS } from './kif-words.js';
import {
  applyTrack,
  boardSfen,
  boardUsi,
  cloneBoard,
  dropUsi,
  ENDINGS,
  type Ending,
  type EndingKind,
  fileOfIndex,
  type GameRecord,
  MAX_RECORD_CHARS,
  newDraft,
  type RecordComment,
  type RecordError,
  type RecordVariation,
  rankOfIndex,
  readUsi,
  recordError,
  type StatedResult,
  squareIndex,
  type TrackBoard,
  trackBoard,
} from './record.js';
import { LineCursor } from './record-tree.js';

type Fail = { ok: false; error: RecordError };

/** JKF presets by start position; 平手 first. */
const PRESETS: readonly (readonly [string, string])[] = [
  ['HIRATE', START_SFEN],
  ['KY', HANDICAP_SFENS.lance],
  ['KY_R', HANDICAP_SFENS.right_lance],
  ['KA', HANDICAP_SFENS.bishop],
  ['HI', HANDICAP_SFENS.rook],
  ['HIKY', HANDICAP_SFENS.rook_lance],
  ['2', HANDICAP_SFENS.two_piece],
  ['3', RECORD_HANDICAP_SFENS.three_piece],
  ['4', HANDICAP_SFENS.four_piece],
  ['5', RECORD_HANDICAP_SFENS.five_piece],
  ['5_L', RECORD_HANDICAP_SFENS.left_five_piece],
  ['6', HANDICAP_SFENS.six_piece],
  ['7_L', RECORD_HANDICAP_SFENS.left_seven_piece],
  ['7_R', RECORD_HANDICAP_SFENS.right_seven_piece],
  ['8', HANDICAP_SFENS.eight_piece],
  ['10', HANDICAP_SFENS.ten_piece],
];
const startOf = (sfen: string): string => sfen.split(' ').slice(0, 3).join(' ');

/** The JKF types, as the format's README and schema give them. */
export interface JkfPlace {
  readonly x: number;
  readonly y: number;
}
export interface JkfTime {
  readonly h?: number;
  readonly m: number;
  readonly s: number;
}
export interface JkfMove {
  readonly color: 0 | 1;
  readonly from?: JkfPlace;
  readonly to?: JkfPlace;
  readonly piece: string;
  readonly same?: boolean;
  readonly promote?: boolean;
  readonly capture?: string;
  readonly relative?: string;
}
export interface JkfNode {
  readonly comments?: string[];
  readonly move?: JkfMove;
  readonly time?: { readonly now: JkfTime; readonly total: JkfTime };
  readonly special?: string;
  readonly forks?: JkfNode[][];
  /**
   * This server's addition, which other readers ignore: the lines of a record that readers skip
   * (CSA `'…`, KIF `#…`) after this node, so that an export to JKF and back keeps them.
   */
  readonly notes?: string[];
}
export interface Jkf {
  readonly header: Record<string, string>;
  readonly initial?: {
    readonly preset: string;
    readonly data?: {
      readonly color: 0 | 1;
      readonly board: ({ color?: 0 | 1; kind?: string } | Record<string, never>)[][];
      readonly hands: [Record<string, number>, Record<string, number>];
    };
  };
  readonly moves: JkfNode[];
}

// --- reading ---------------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (message: string): Fail => recordError('bad_line', 0, `JKF: ${message}`);

function initialSfen(jkf: Record<string, unknown>): Result<string, RecordError> {
  const initial = jkf.initial;
  if (initial === undefined || initial === null) return ok(START_SFEN);
  if (!isObject(initial) || typeof initial.preset !== 'string') return fail('initial.preset is missing');
  const preset = PRESETS.find(([name]) => name === initial.preset);
  if (preset) return ok(preset[1]);
  if (initial.preset !== 'OTHER') return recordError('bad_handicap', 0, `JKF: unknown preset '${initial.preset}'`);
  const data = initial.data;
  if (!isObject(data) || !Array.isArray(data.board) || !Array.isArray(data.hands))
    return fail('an OTHER start needs data.board and data.hands');
  const squares = new Array<number>(81).fill(0);
  for (let x = 1; x <= 9; x++)
    for (let y = 1; y <= 9; y++) {
      const cell: unknown = (data.board[x - 1] as unknown[] | undefined)?.[y - 1];
      if (!isObject(cell) || cell.kind === undefined || cell.kind === null) continue;
      const type = csaCodeType(String(cell.kind));
      if (type <= 0 || (cell.color !== 0 && cell.color !== 1)) return fail(`bad piece on ${x}${y}`);
      squares[squareIndex(x, y)] = type | (cell.color << 4);
    }
  const hands: [number[], number[]] = [new Array(8).fill(0), new Array(8).fill(0)];
  for (const color of [0, 1] as const) {
    const hand: unknown = data.hands[color];
    if (!isObject(hand)) return fail('bad hands');
    for (const [kind, n] of Object.entries(hand)) {
      const type = csaCodeType(kind);
      if (type <= 0 || type >= KING || !Number.isInteger(n) || (n as number) < 0 || (n as number) > 18)
        return fail(`bad hand piece ${kind}`);
      hands[color][type] = n as number;
    }
  }
  return boardSfen({ squares, hands, side: data.color === 1 ? 1 : 0 }, 0);
}

const seconds = (time: unknown): number | null => {
  if (!isObject(time) || !isObject(time.now)) return null;
  const { h, m, s } = time.now as Record<string, unknown>;
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  return n(h) * 3600 + n(m) * 60 + n(s);
};

function moveUsi(cursor: LineCursor, move: Record<string, unknown>, where: string): Result<string, RecordError> {
  const board = cursor.board;
  if (move.color !== board.side) return recordError('wrong_turn', 0, `JKF ${where}: not the side to move`);
  const place = (p: unknown): number | null =>
    isObject(p) && Number.isInteger(p.x) && Number.isInteger(p.y) && (p.x as number) >= 1 && (p.x as number) <= 9
      ? (p.y as number) >= 1 && (p.y as number) <= 9
        ? squareIndex(p.x as number, p.y as number)
        : null
      : null;
  const to = move.to !== undefined && move.to !== null ? place(move.to) : move.same ? cursor.lastTo : null;
  if (to === null || to < 0) return recordError('bad_move', 0, `JKF ${where}: no destination`);
  const type = csaCodeType(String(move.piece));
  if (type <= 0) return recordError('unknown_piece', 0, `JKF ${where}: unknown piece '${String(move.piece)}'`);
  if (move.from === undefined || move.from === null) {
    // Kifu for JS writes `from` for every board move once normalized; without it a move is a drop
    if (typeof move.relative === 'string' && move.relative !== 'H' && move.relative !== '')
      return recordError('bad_move', 0, `JKF ${where}: a board move without its origin (unnormalized JKF)`);
    if (type >= KING) return recordError('bad_move', 0, `JKF ${where}: ${String(move.piece)} cannot be dropped`);
    return ok(dropUsi(type, to));
  }
  const from = place(move.from);
  if (from === null) return recordError('bad_move', 0, `JKF ${where}: bad origin`);
  const piece = (board.squares[from] ?? 0) & 15;
  if (piece === 0)
    return recordError('no_piece', 0, `JKF ${where}: no piece on ${fileOfIndex(from)}${rankOfIndex(from)}`);
  if (piece !== type) return recordError('piece_mismatch', 0, `JKF ${where}: ${CSA_PIECE_CODES[piece]} on the origin`);
  if (from === to) return recordError('bad_move', 0, `JKF ${where}: the move does not move`);
  return ok(boardUsi(from, to, move.promote === true && canPromoteType(type)));
}

const specialKind = (special: string): EndingKind => {
  const kind = special.toLowerCase();
  return kind !== 'other' && (ENDINGS as readonly string[]).includes(kind) ? (kind as EndingKind) : 'other';
};

/** Reads a line of nodes, then its forks, the latest first (see record-tree.ts). */
function readLine(cursor: LineCursor, nodes: unknown[], depth: number): Fail | null {
  if (depth > 200) return fail('forks nested too deep');
  const forks: { ply: number; line: unknown[] }[] = [];
  for (const [i, node] of nodes.entries()) {
    if (!isObject(node)) return fail(`node ${i} is not an object`);
    const ply = cursor.ply + 1;
    const where = `move ${ply}`;
    if (Array.isArray(node.forks))
      for (const fork of node.forks) {
        if (!Array.isArray(fork)) return fail(`${where}: a fork is not a list`);
        forks.push({ ply, line: fork });
      }
    if (isObject(node.move)) {
      const usi = moveUsi(cursor, node.move, where);
      if (!usi.ok) return usi;
      const failed = cursor.play(usi.value, seconds(node.time), 0);
      if (failed) return failed;
    } else if (typeof node.special === 'string') {
      const ending: Ending = { kind: specialKind(node.special), raw: node.special, seconds: seconds(node.time) };
      const failed = cursor.end(ending, 0);
      if (failed) return failed;
    }
    if (Array.isArray(node.comments)) for (const c of node.comments) cursor.comment(String(c));
    if (Array.isArray(node.notes)) for (const c of node.notes) cursor.comment(String(c), 'note');
  }
  for (const fork of forks.sort((a, b) => b.ply - a.ply)) {
    const failed = cursor.branch(fork.ply, 0) ?? readLine(cursor, fork.line, depth + 1);
    if (failed) return failed;
  }
  return null;
}

const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ');

export function parseJkf(input: string): Result<GameRecord, RecordError> {
  if (input.length > MAX_RECORD_CHARS) return recordError('too_large', 0, 'record too large');
  let json: unknown;
  try {
    json = JSON.parse(input.replace(/^\uFEFF/, ''));
  } catch (e) {
    return fail(`not JSON (${(e as Error).message})`);
  }
  if (!isObject(json) || !Array.isArray(json.moves)) return fail('a JKF is an object with a moves list');
  const sfen = initialSfen(json);
  if (!sfen.ok) return sfen;
  const record = newDraft(sfen.value);
  if (isObject(json.header))
    for (const [name, raw] of Object.entries(json.header)) {
      // a header is one line in KIF and CSA: a line break in JSON would end it there and make
      // the rest a line of moves in every export
      const [key, value] = [oneLine(name), oneLine(String(raw))];
      if (key === '先手' || key === '下手') record.players.sente = value;
      else if (key === '後手' || key === '上手') record.players.gote = value;
      else if (key === '手合割') continue;
      else readKifInfo(record, key, value);
    }
  const board = trackBoard(sfen.value);
  if (!board.ok) return board;
  const failed = readLine(new LineCursor(record, board.value), json.moves, 0);
  if (failed) return failed;
  readDeclaration(record);
  return ok(record);
}

// --- writing ---------------------------------------------------------------------------

const hms = (total: number): JkfTime => ({
  h: Math.floor(total / 3600),
  m: Math.floor(total / 60) % 60,
  s: total % 60,
});

interface Line {
  readonly ply: number;
  readonly moves: readonly string[];
  readonly times: readonly (number | null)[];
  readonly comments: readonly RecordComment[];
  readonly ending: Ending | null;
  readonly variations: readonly RecordVariation[];
}

function writeLine(
  line: Line,
  start: { board: TrackBoard; lastTo: number; totals: [number, number]; main?: Line; result?: StatedResult | null },
): Result<JkfNode[], RecordError> {
  const board = cloneBoard(start.board);
  const totals: [number, number] = [...start.totals];
  let lastTo = start.lastTo;
  const nodes: {
    node: JkfNode & { forks?: JkfNode[][]; comments?: string[]; notes?: string[] };
    ply: number;
  }[] = [];
  const starts = new Map<number, { board: TrackBoard; lastTo: number; totals: [number, number] }>();
  const commentsAt = (ply: number, kind?: 'note'): string[] =>
    line.comments.filter((c) => c.ply === ply && c.kind === kind).flatMap((c) => c.text.split(/\r?\n/));
  const timeOf = (t: number | null, side: Color): JkfNode['time'] | undefined => {
    if (t === null) return undefined;
    totals[side] += Math.round(t);
    return { now: { m: Math.floor(Math.round(t) / 60), s: Math.round(t) % 60 }, total: hms(totals[side]) };
  };
  for (const [i, usi] of line.moves.entries()) {
    const ply = line.ply + i;
    starts.set(ply, { board: cloneBoard(board), lastTo, totals: [...totals] });
    const m = readUsi(usi);
    const piece = m === null ? 0 : m.drop || (board.squares[m.from] ?? 0) & 15;
    if (m === null || piece === 0) return recordError('bad_move', 0, `move ${ply} '${usi}' cannot be written`);
    const captured = (board.squares[m.to] ?? 0) & 15;
    const side = board.side;
    const move: JkfMove = {
      color: side,
      ...(m.drop ? {} : { from: { x: fileOfIndex(m.from), y: rankOfIndex(m.from) } }),
      to: { x: fileOfIndex(m.to), y: rankOfIndex(m.to) },
      piece: CSA_PIECE_CODES[piece] as string,
      ...(m.to === lastTo ? { same: true } : {}),
      ...(m.promote ? { promote: true } : {}),
      ...(captured && !m.drop ? { capture: CSA_PIECE_CODES[captured] as string } : {}),
    };
    const time = timeOf(line.times[i] ?? null, side);
    applyTrack(board, m);
    lastTo = m.to;
    nodes.push({ node: { move, ...(time ? { time } : {}) }, ply });
  }
  const endPly = line.ply + line.moves.length;
  starts.set(endPly, { board: cloneBoard(board), lastTo, totals: [...totals] });
  // a failed declaration is the declarer's foul, as readers score it, and a note says what it was
  const failed =
    line.ending !== null && declarationFailed({ ending: line.ending, result: start.result ?? null }, board.side);
  if (line.ending) {
    const time = timeOf(line.ending.seconds, board.side);
    const kind = failed ? DECLARER_FOUL : line.ending.kind;
    const special = kind === 'other' ? 'ERROR' : kind.toUpperCase();
    nodes.push({ node: { special, ...(time ? { time } : {}) }, ply: endPly });
  }
  for (const n of nodes) {
    const c = commentsAt(n.ply);
    if (c.length > 0) n.node.comments = c;
    const notes = [...(failed && n.ply === endPly ? [DECLARATION_NOTE] : []), ...commentsAt(n.ply, 'note')];
    if (notes.length > 0) n.node.notes = notes;
  }
  // JKF has no node before a fork's first move: its comments join that move's
  const before = line === start.main ? [] : commentsAt(line.ply - 1);
  if (before.length > 0 && nodes[0]) nodes[0].node.comments = [...before, ...(nodes[0].node.comments ?? [])];
  const notesBefore = line === start.main ? [] : commentsAt(line.ply - 1, 'note');
  if (notesBefore.length > 0 && nodes[0]) nodes[0].node.notes = [...notesBefore, ...(nodes[0].node.notes ?? [])];
  for (const v of line.variations) {
    const at = starts.get(v.ply);
    const host = nodes.find((n) => n.ply === v.ply);
    if (at === undefined || host === undefined)
      return recordError('bad_move', 0, `a variation at move ${v.ply} has no move of its line to replace`);
    const fork = writeLine(v, at);
    if (!fork.ok) return fork;
    host.node.forks = [...(host.node.forks ?? []), fork.value];
  }
  return ok(nodes.map((n) => n.node));
}

/** The record as a JKF object (JSON.stringify it to write a `.jkf`). */
export function exportJkf(record: GameRecord): Result<Jkf, RecordError> {
  const tracked = trackBoard(record.sfen);
  if (!tracked.ok) return tracked;
  const board = tracked.value;
  const header: Record<string, string> = {};
  const preset = PRESETS.find(([, sfen]) => startOf(sfen) === startOf(record.sfen))?.[0];
  const handicap = preset !== undefined && preset !== 'HIRATE';
  if (record.players.sente !== null) header[handicap ? '下手' : '先手'] = record.players.sente;
  if (record.players.gote !== null) header[handicap ? '上手' : '後手'] = record.players.gote;
  for (const [name, key] of Object.entries(HEADER_KEYS)) {
    const value = record.info[key];
    if (value !== undefined) header[name] = value;
  }
  for (const extra of record.extraInfo) if (extra.format === 'kif') header[extra.key] = extra.value;
  for (const [key, value] of csaOnlyHeaders(record)) header[key] = value;
  const initial: Jkf['initial'] =
    preset !== undefined
      ? { preset }
      : {
          preset: 'OTHER',
          data: {
            color: board.side,
            board: Array.from({ length: 9 }, (_, x) =>
              Array.from({ length: 9 }, (_, y) => {
                const p = board.squares[squareIndex(x + 1, y + 1)] ?? 0;
                return p === 0 ? {} : { color: (p >> 4) as 0 | 1, kind: CSA_PIECE_CODES[p & 15] as string };
              }),
            ),
            hands: [0, 1].map((c) =>
              Object.fromEntries(
                [1, 2, 3, 4, 5, 6, 7].map((t) => [CSA_PIECE_CODES[t], board.hands[c as Color][t] ?? 0]),
              ),
            ) as [Record<string, number>, Record<string, number>],
          },
        };
  const main: Line = { ...record, ply: 1, variations: record.variations ?? [] };
  const nodes = writeLine(main, { board, lastTo: -1, totals: [0, 0], main, result: record.result ?? null });
  if (!nodes.ok) return nodes;
  const at0 = (kind?: 'note'): string[] =>
    record.comments.filter((c) => c.ply === 0 && c.kind === kind).flatMap((c) => c.text.split(/\r?\n/));
  const [first, notes] = [at0(), at0('note')];
  const start: JkfNode = { ...(first.length > 0 ? { comments: first } : {}), ...(notes.length > 0 ? { notes } : {}) };
  return ok({ header, initial, moves: [start, ...nodes.value] });
}
