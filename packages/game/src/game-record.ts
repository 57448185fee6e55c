/**
 * A game's record (the rules package's GameRecord) from its events, for the exporters: the
 * moves with their times, the players' comments after their moves, and the ending as KIF and
 * CSA state it. An imported game gives back what its file said (GameCreated.record: headers,
 * comments, variations, the ending as written), so export → import reads the same game.
 */
import type { Color, EndingKind, GameRecord, RecordComment, StatedResult } from '@shogi/rules';
import type { GameCreated, GameEnded, RecordedEvent, RecordNotes } from './events.js';
import { sideOfSfen } from './state.js';

type Side = 'sente' | 'gote';

interface RecordEnd {
  /** The ending line, which speaks of the side to move; null when none says what happened. */
  readonly kind: EndingKind | null;
  readonly comment: string | null;
  /** The CSA server's summary line (`toryo:LOSER lose:WINNER win`), for an end no ending line states. */
  readonly summary: string | null;
  /** KIF's closing line, which names the winner whoever was to move. */
  readonly result: StatedResult | null;
}

const COLOR: Readonly<Record<Side, Color>> = { sente: 0, gote: 1 };

/** The closing line's words for an end (`後手の勝ち`, `時間切れにより先手の勝ち`, `千日手`). */
function closingText(ended: GameEnded['data'], handicap: boolean, toMove: Side): StatedResult | null {
  const { winner, reason } = ended;
  const name = (side: Side): string => (side === 'sente' ? (handicap ? '下手' : '先手') : handicap ? '上手' : '後手');
  if (winner === null) {
    if (reason === 'sennichite') return { winner: null, text: '千日手' };
    if (reason === 'impasse') return { winner: null, text: '持将棋' };
    if (reason === 'max_moves' || reason === 'stalemate' || reason === 'draw')
      return { winner: null, text: '引き分け' };
    return null;
  }
  const loser: Side = winner === 'sente' ? 'gote' : 'sente';
  const c = COLOR[winner];
  if (reason === 'timeout') return { winner: c, text: `時間切れにより${name(winner)}の勝ち` };
  if (reason === 'illegal_move' || reason === 'abort' || reason === 'perpetual_check')
    return { winner: c, text: `${name(loser)}の反則負け` };
  // the declarer is the side to move: a declaration that fails wins nothing for it
  if (reason === 'impasse' && winner === toMove) return { winner: c, text: `${name(winner)}の入玉勝ち` };
  return { winner: c, text: `${name(winner)}の勝ち` };
}

/**
 * How a record states a game's end. KIF ending words and CSA `%` lines speak of the side to
 * move (`投了`/`%TORYO`: the side to move resigned), so each is used only when that is who
 * lost. An end neither can state (a resignation on the opponent's turn) has no ending line:
 * KIF's closing line names the winner, and CSA's summary line, which the importer reads.
 */
function endOf(
  ended: GameEnded['data'],
  toMove: Side,
  names: Readonly<Record<Side, string>>,
  handicap: boolean,
): RecordEnd {
  const result = closingText(ended, handicap, toMove);
  const stated = (kind: EndingKind): RecordEnd => ({ kind, comment: null, summary: null, result });
  const { winner, reason } = ended;
  // a foul (an imported illegal move, a wrong impasse declaration) is the loser's action
  const foulBy = (side: Side): EndingKind => (side === 'sente' ? '+illegal_action' : '-illegal_action');
  if (winner === null) {
    if (reason === 'sennichite' || reason === 'perpetual_check') return stated('sennichite');
    if (reason === 'impasse') return stated('jishogi');
    if (reason === 'stalemate') return stated('other');
    if (reason === 'max_moves') return stated('max_moves');
    if (reason === 'draw') return stated('hikiwake');
    return stated('chudan');
  }
  const loser: Side = winner === 'sente' ? 'gote' : 'sente';
  switch (reason) {
    case 'perpetual_check':
      return stated(loser === toMove ? foulBy(loser) : 'oute_sennichite');
    case 'sennichite':
    case 'stalemate':
      return stated('other');
    case 'abort':
      return stated(foulBy(loser));
    // the declaration as made; its result says whether it held, and an exporter writes a failed
    // one as the declarer's foul (rules' cross-format.ts)
    case 'impasse':
      return stated('kachi');
    // the illegal move is not in the record: its mover is the side to move
    case 'illegal_move':
      return stated(loser === toMove ? 'illegal_move' : foulBy(loser));
    default:
      break;
  }
  const kind: EndingKind = reason === 'checkmate' ? 'tsumi' : reason === 'timeout' ? 'time_up' : 'toryo';
  if (loser === toMove) return stated(kind);
  const summaryReason = reason === 'timeout' ? 'time up' : reason === 'checkmate' ? 'tsumi' : 'toryo';
  return {
    kind: null,
    comment: `${reason} by ${loser} while ${toMove} was to move: ${winner} wins`,
    summary: `${summaryReason}:${names[loser]} lose:${names[winner]} win`,
    result,
  };
}

/**
 * A player's comment with a move, as sent after `,` (csa.md): `'*…` comments the move; any other
 * `'…` is a line CSA readers skip, kept as such. A note never reads as the server's summary line
 * when the record is imported.
 */
function playerComment(ply: number, comment: string): RecordComment {
  if (comment.startsWith('*')) return { ply, text: comment.slice(1) };
  return { ply, text: comment.startsWith('summary:') ? ` ${comment}` : comment, kind: 'note' };
}

/**
 * The comments of a record imported before comments had kinds: a CSA file's were kept with the
 * `*` of `'*` (a comment on the move) and without it for a line readers skip; other formats had
 * only comments on moves.
 */
function legacyComments(notes: RecordNotes): readonly RecordComment[] {
  if (notes.format !== 'csa') return notes.comments;
  return notes.comments.map((c) =>
    c.text.startsWith('*') ? { ply: c.ply, text: c.text.slice(1) } : { ply: c.ply, text: c.text, kind: 'note' },
  );
}

/** JST (+09:00) `YYYY/MM/DD HH:MM:SS`, the header time both formats use. */
const headerTime = (iso: string): string =>
  new Date(Date.parse(iso) + 9 * 3600_000).toISOString().replace('T', ' ').replace(/-/g, '/').slice(0, 19);

/** The record of a game from its events; null when the game does not exist. */
export function recordOfEvents(events: readonly RecordedEvent[]): GameRecord | null {
  const created = events.find((e): e is RecordedEvent<GameCreated> => e.type === 'GameCreated');
  if (created === undefined) return null;
  const moves: string[] = [];
  const times: (number | null)[] = [];
  let last = Date.parse(created.data.createdAt);
  let submitted = last;
  let ended: GameEnded['data'] | null = null;
  // the players' words with their moves (a CSA engine's score and line), after each move
  const comments: RecordComment[] = [];
  const commentOf = new Map<number, string>();
  for (const e of events) {
    if (e.type === 'MoveSubmitted') {
      submitted = Date.parse(e.data.receivedAt);
      if (e.data.comment !== undefined) commentOf.set(e.seq, e.data.comment);
    } else if (e.type === 'MoveAccepted') {
      moves.push(e.data.usi);
      times.push(Math.max(0, Math.floor((submitted - last) / 1000)));
      last = submitted;
      const comment = commentOf.get(e.data.submittedSeq);
      if (comment !== undefined) comments.push(playerComment(moves.length, comment));
    } else if (e.type === 'TakebackAccepted') {
      // the record is the game as it stands: moves taken back are no part of it
      moves.length = e.data.ply;
      times.length = e.data.ply;
      while (comments.length > 0 && (comments.at(-1)?.ply ?? 0) > e.data.ply) comments.pop();
      last = Date.parse(e.data.at);
    } else if (e.type === 'GameEnded') ended = e.data;
  }
  const { data } = created;
  const names = { sente: data.sente.name, gote: data.gote.name };
  const first: Side = sideOfSfen(data.initialSfen);
  const toMove: Side = moves.length % 2 === 0 ? first : first === 'sente' ? 'gote' : 'sente';
  const end = ended === null ? null : endOf(ended, toMove, names, data.handicap !== null);
  const notes = data.record;
  if (notes !== undefined) {
    // an imported game: its file's words first; what the server decided fills what the file left unsaid
    const stated = notes.ending !== null;
    // a failed %KACHI is stated, and only the server's judgement says it failed: that result is written
    const failedDeclaration = notes.ending?.kind === 'kachi' && ended?.winner != null && ended.winner !== toMove;
    return {
      sfen: data.initialSfen,
      moves,
      times: notes.times.length === moves.length ? notes.times : times,
      ending: notes.ending ?? (end?.kind == null ? null : { kind: end.kind, raw: '', seconds: null }),
      summary: notes.summary ?? (stated ? null : (end?.summary ?? null)),
      players: notes.players,
      info: notes.info,
      extraInfo: notes.extraInfo,
      comments: notes.commentKinds === true ? notes.comments : legacyComments(notes),
      result: notes.result ?? (stated && !failedDeclaration ? null : (end?.result ?? null)),
      variations: notes.variations ?? [],
    };
  }
  return {
    sfen: data.initialSfen,
    moves,
    times,
    ending: end?.kind == null ? null : { kind: end.kind, raw: '', seconds: null },
    summary: end?.summary ?? null,
    players: names,
    info: {
      start_time: headerTime(data.createdAt),
      ...(ended === null ? {} : { end_time: headerTime(ended.at) }),
    },
    extraInfo: [],
    comments: end?.comment == null ? comments : [...comments, { ply: moves.length, text: end.comment }],
    result: end?.result ?? null,
    variations: [],
  };
}
