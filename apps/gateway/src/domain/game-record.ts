/**
 * A game's record (the rules package's GameRecord) from its events: the moves with their
 * times, the players' comments after their moves, the ending as KIF and CSA state it.
 * The records routes export it; the CSA front end's monitors show it.
 */
import { type GameCreated, type GameEnded, type RecordedEvent, sideOfSfen } from '@shogi/game';
import type { EndingKind, GameRecord } from '@shogi/rules';

type Side = 'sente' | 'gote';

/**
 * How a record states a game's end. KIF ending words and CSA `%` lines speak of the side to
 * move (`投了`/`%TORYO`: the side to move resigned), so each is used only when that is who
 * lost. An end neither format can state (a resignation on the opponent's turn) is left
 * without an ending line and said in a comment and in the CSA server's summary line (which
 * names the winner, and which this server's importer reads): a record may lack a result,
 * but it never names the wrong winner.
 */
function endingOf(
  ended: GameEnded['data'],
  toMove: Side,
  names: { readonly sente: string; readonly gote: string },
): { kind: EndingKind | null; comment: string | null; summary: string | null } {
  const stated = (kind: EndingKind) => ({ kind, comment: null, summary: null });
  const { winner, reason } = ended;
  // a foul (an imported illegal move, a wrong impasse declaration) is the loser's action
  const foulBy = (side: Side): EndingKind => (side === 'sente' ? '+illegal_action' : '-illegal_action');
  if (winner === null) {
    if (reason === 'sennichite' || reason === 'perpetual_check') return stated('sennichite');
    if (reason === 'impasse') return stated('jishogi');
    if (reason === 'stalemate') return stated('other');
    if (reason === 'max_moves') return stated('max_moves');
    return stated('chudan');
  }
  const loser: Side = winner === 'sente' ? 'gote' : 'sente';
  switch (reason) {
    case 'perpetual_check':
      return stated('oute_sennichite');
    case 'sennichite':
    case 'stalemate':
      return stated('other');
    case 'abort':
      return stated(foulBy(loser));
    case 'impasse':
      return stated(winner === toMove ? 'kachi' : foulBy(toMove));
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
  };
}

/** JST (+09:00) `YYYY/MM/DD HH:MM:SS`, the header time both formats use. */
const headerTime = (iso: string): string =>
  new Date(Date.parse(iso) + 9 * 3600_000).toISOString().replace('T', ' ').replace(/-/g, '/').slice(0, 19);

/** The record of a game from its events; null when the game does not exist. */
export function recordOf(events: readonly RecordedEvent[]): GameRecord | null {
  const created = events.find((e): e is RecordedEvent<GameCreated> => e.type === 'GameCreated');
  if (created === undefined) return null;
  const moves: string[] = [];
  const times: (number | null)[] = [];
  let last = Date.parse(created.data.createdAt);
  let submitted = last;
  let ended: GameEnded['data'] | null = null;
  // the players' words with their moves (a CSA engine's score and line), after each move
  const comments: { ply: number; text: string }[] = [];
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
      // a player's comment never reads as the server's summary line when the record is imported
      if (comment !== undefined)
        comments.push({ ply: moves.length, text: comment.startsWith('summary:') ? ` ${comment}` : comment });
    } else if (e.type === 'GameEnded') ended = e.data;
  }
  const names = { sente: created.data.sente.name, gote: created.data.gote.name };
  const first: Side = sideOfSfen(created.data.initialSfen);
  const toMove: Side = moves.length % 2 === 0 ? first : first === 'sente' ? 'gote' : 'sente';
  const end = ended === null ? null : endingOf(ended, toMove, names);
  return {
    sfen: created.data.initialSfen,
    moves,
    times,
    ending: end?.kind == null ? null : { kind: end.kind, raw: '', seconds: null },
    summary: end?.summary ?? null,
    players: names,
    info: {
      start_time: headerTime(created.data.createdAt),
      ...(ended === null ? {} : { end_time: headerTime(ended.at) }),
    },
    extraInfo: [],
    comments: end?.comment == null ? comments : [...comments, { ply: moves.length, text: end.comment }],
  };
}
