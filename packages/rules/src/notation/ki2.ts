/**
 * KI2 game records (Kakinoki's second format): the KIF header, then moves without origins,
 * several to a line (`▲７六歩　△３四歩　▲２二角成`), told apart where two pieces could make
 * them by 右/左/直 (which piece, from the mover's side) and 上/引/寄 (forward, back, sideways),
 * with 成/不成 and 打 where they matter. Each move is resolved against the rules' legal moves
 * of its position, so a KI2 record holds only legal moves; the result is read from the closing
 * line (`まで64手で後手の勝ち`), as KI2 has no ending moves.
 */
import { legalMoves } from '../movegen.js';
import { positionFromSetup, START_SFEN } from '../sfen.js';
import { type Color, ok, type Result } from '../types.js';
import { formatUsi } from '../usi.js';
import { readDeclaration } from './cross-format.js';
import { closingResult, type HeaderState, headerLine, newHeader, startBoard } from './kif-header.js';
import { digit, pieceType } from './kif-words.js';
import {
  type Ending,
  type EndingKind,
  fileOfIndex,
  type GameRecord,
  MAX_LINE_CHARS,
  MAX_RECORD_CHARS,
  newDraft,
  type RecordError,
  rankOfIndex,
  readUsi,
  recordError,
  squareIndex,
  type TrackBoard,
} from './record.js';
import { LineCursor } from './record-tree.js';

type Fail = { ok: false; error: RecordError };

const SENTE_MARKS = '▲☗▼';
const MOVE_MARKS = /[▲△☗☖▼▽]/;
const TOKEN =
  /^([▲△☗☖▼▽])[\s\u3000]*(?:([1-9１-９])([1-9１-９一二三四五六七八九])|同[\s\u3000]*)(成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全馬龍竜])([右左直上引寄打成不生]*)$/;

interface Wanted {
  readonly to: number;
  readonly type: number;
  readonly modifiers: string;
  readonly promote: boolean | null;
  readonly drop: boolean;
}

/** The legal move a KI2 move names on `board`, as USI; an error when none or several match. */
function resolve(board: TrackBoard, want: Wanted): Result<string, string> {
  const pos = positionFromSetup({ squares: board.squares, hands: board.hands, side: board.side, moveNumber: 1 });
  if (!pos.ok) return { ok: false, error: pos.error.message };
  const forward = board.side === 0 ? -1 : 1;
  const all = legalMoves(pos.value)
    .map(formatUsi)
    .map((usi) => ({ usi, m: readUsi(usi) }))
    .filter((c): c is { usi: string; m: NonNullable<ReturnType<typeof readUsi>> } => c.m?.to === want.to);
  const boardMoves = all.filter((c) => c.m.drop === 0 && ((board.squares[c.m.from] ?? 0) & 15) === want.type);
  const drops = all.filter((c) => c.m.drop === want.type);
  // 打 is written only where a board move could reach the square too
  let found = want.drop ? drops : boardMoves.length > 0 ? boardMoves : drops;
  if (want.promote === true) found = found.filter((c) => c.m.promote);
  else {
    const plain = found.filter((c) => !c.m.promote);
    // no word: the move without promotion, unless only a promotion is legal
    found = plain.length > 0 || want.promote === false ? plain : found;
  }
  const dy = (c: (typeof found)[number]): number => (rankOfIndex(c.m.to) - rankOfIndex(c.m.from)) * forward;
  for (const mod of want.modifiers) {
    if (found.every((c) => c.m.drop > 0)) break;
    if (mod === '上') found = found.filter((c) => dy(c) > 0);
    else if (mod === '引') found = found.filter((c) => dy(c) < 0);
    else if (mod === '寄') found = found.filter((c) => dy(c) === 0);
    else if (mod === '直') found = found.filter((c) => dy(c) > 0 && fileOfIndex(c.m.from) === fileOfIndex(c.m.to));
  }
  for (const mod of want.modifiers) {
    if (mod !== '右' && mod !== '左') continue;
    // the mover's right is the low files for sente and the high files for gote
    const key = (c: (typeof found)[number]): number =>
      (mod === '右') === (board.side === 0) ? fileOfIndex(c.m.from) : -fileOfIndex(c.m.from);
    const best = Math.min(...found.map(key));
    found = found.filter((c) => key(c) === best);
  }
  if (found.length === 1) return ok((found[0] as { usi: string }).usi);
  return { ok: false, error: found.length === 0 ? 'no legal move matches it' : 'several legal moves match it' };
}

function token(cursor: LineCursor, text: string, line: number): Fail | null {
  const t = TOKEN.exec(text);
  if (!t) return recordError('bad_move', line, `cannot read move '${text.slice(0, 20)}'`);
  const [, mark = '', file, rank, name = '', words = ''] = t;
  const color: Color = SENTE_MARKS.includes(mark) ? 0 : 1;
  if (color !== cursor.board.side) return recordError('wrong_turn', line, `'${text}' is not the side to move`);
  let to = cursor.lastTo;
  if (file !== undefined) to = squareIndex(digit(file), digit(rank));
  else if (to < 0) return recordError('bad_move', line, '同 without a previous move');
  const type = pieceType(name);
  const promote = /不成|生/.test(words) ? false : words.includes('成') ? true : null;
  const want: Wanted = { to, type, modifiers: words.replace(/[打成不生]/g, ''), promote, drop: words.includes('打') };
  const usi = resolve(cursor.board, want);
  if (!usi.ok)
    return recordError(
      usi.error.startsWith('several') ? 'ambiguous_move' : 'bad_move',
      line,
      `'${text}' (move ${cursor.ply + 1}): ${usi.error}`,
    );
  return cursor.play(usi.value, null, line);
}

/** The ending a closing line states about the side to move, for KI2 (which has no ending moves). */
function closingEnding(text: string, toMove: Color): Ending | null {
  const result = closingResult(text);
  const body = result?.text ?? text.replace(/^まで、?\s*(?:[0-9]+手で?)?/, '');
  const raw = body;
  const stated = (kind: EndingKind): Ending => ({ kind, raw, seconds: null });
  if (body.includes('連続王手の千日手')) return stated('oute_sennichite');
  if (body.includes('千日手')) return stated('sennichite');
  if (body.includes('持将棋')) return stated('jishogi');
  if (body.includes('最大手数')) return stated('max_moves');
  // an adjourned game's record ends at its sealed move, as KIF's does
  if (body.includes('中断') || body.includes('封じ手')) return stated('chudan');
  if (body.includes('引き分け') || body.includes('引分')) return stated('hikiwake');
  if (body.startsWith('不詰')) return stated('fuzumi');
  if (body.startsWith('詰')) return stated('tsumi');
  if (result === null || result.winner === null) return null;
  const loser = (result.winner ^ 1) as Color;
  if (body.includes('反則'))
    return stated(loser === toMove ? 'illegal_move' : loser === 0 ? '+illegal_action' : '-illegal_action');
  if (body.includes('入玉')) return result.winner === toMove ? stated('kachi') : null;
  if (loser !== toMove) return null;
  if (body.includes('時間切れ') || body.includes('切れ負け')) return stated('time_up');
  return stated('toryo');
}

export function parseKi2(input: string): Result<GameRecord, RecordError> {
  if (input.length > MAX_RECORD_CHARS) return recordError('too_large', 0, 'record too large');
  const record = newDraft(START_SFEN);
  const header: HeaderState = newHeader(record);
  let cursor: LineCursor | null = null;
  let headerSeen = false;
  const lines = input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const begin = (line: number): Fail | null => {
    if (cursor !== null) return null;
    const board = startBoard(header, line);
    if (!board.ok) return board;
    cursor = new LineCursor(record, board.value);
    return null;
  };
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (raw.length > MAX_LINE_CHARS) return recordError('too_large', line, 'line too long');
    const c = cursor as LineCursor | null;
    if (raw.startsWith('*')) {
      if (c === null) record.comments.push({ ply: 0, text: raw.slice(1) });
      else c.comment(raw.slice(1));
      continue;
    }
    const text = raw.trim();
    // a `#` line is a note (a CSA `'` line an export kept), as in KIF: among the moves, or after
    // the header (KI2 has no 手数---- line to start the moves); before it a program's banner
    if (text.startsWith('#') && c !== null) c.comment(raw.slice(1), 'note');
    else if (text.startsWith('#') && headerSeen) record.comments.push({ ply: 0, text: raw.slice(1), kind: 'note' });
    if (text === '' || text.startsWith('#') || text.startsWith('&')) continue;
    headerSeen = true;
    const variation = /^変化[：:][\s\u3000]*(\d{1,5})/.exec(text);
    let failed: Fail | null = null;
    if (variation) failed = c === null ? null : c.branch(Number(variation[1]), line);
    else if (text.startsWith('まで')) {
      failed = begin(line);
      const now = cursor as LineCursor | null;
      if (failed === null && now !== null) {
        const end = closingEnding(text, now.board.side);
        if (now.onMainLine) record.result = closingResult(text);
        if (end !== null) failed = now.end(end, line);
      }
    } else if (MOVE_MARKS.test(text[0] ?? '')) {
      failed = begin(line);
      for (const part of text.split(/(?=[▲△☗☖▼▽])/)) {
        if (failed) break;
        failed = token(cursor as unknown as LineCursor, part.trim(), line);
      }
    } else if (c === null || /^[^\s：:]+[：:]/.test(text)) failed = headerLine(header, text, line);
    else failed = recordError('bad_line', line, `cannot read '${text.slice(0, 40)}'`);
    if (failed) return failed;
  }
  const failed = begin(lines.length);
  if (failed) return failed;
  readDeclaration(record);
  return ok(record);
}
