/**
 * What a spectator sees of a game, folded from the wire events: the position after the
 * last accepted move (MoveAccepted carries its SFEN), the moves, the players, the status.
 * The gateway keeps one per watched game and folds each published batch onto it, so a new
 * watcher gets its snapshot without a read, and the NDJSON stream folds its own (delayed) one.
 */
import type { GameSnapshot, GameView, Side, TimeControl, WireEvent } from '@shogi/protocol';

/** A snapshot without the spectator count (that is per gateway and changes on its own). */
export type SnapshotState = Omit<GameSnapshot, 'spectators' | 'moves'> & { moves: string[] };

export const sideOfSfen = (sfen: string): Side => (sfen.split(' ')[1] === 'w' ? 'gote' : 'sente');

export function snapshotOfView(view: GameView): SnapshotState {
  return {
    id: view.id,
    ruleset: view.ruleset,
    initialSfen: view.initialSfen,
    sfen: view.sfen,
    moves: [...view.moves],
    ply: view.ply,
    sideToMove: view.sideToMove,
    status: view.status,
    result: view.result,
    players: view.players,
    timeControl: view.timeControl,
    rated: view.rated,
    seq: view.lastSeq,
  };
}

interface CreatedPayload {
  gameId: string;
  sente: { id: string; name: string };
  gote: { id: string; name: string };
  ruleset: 'default' | 'jsa';
  initialSfen: string;
  timeControl?: TimeControl;
  rated?: boolean;
}

/** The snapshot right after GameCreated, or null when the event is not one. */
export function snapshotOfCreated(event: WireEvent): SnapshotState | null {
  if (event.type !== 'GameCreated') return null;
  const d = event.payload as unknown as CreatedPayload;
  return {
    id: d.gameId,
    ruleset: d.ruleset,
    initialSfen: d.initialSfen,
    sfen: d.initialSfen,
    moves: [],
    ply: 0,
    sideToMove: sideOfSfen(d.initialSfen),
    status: 'ongoing',
    result: null,
    players: { sente: { id: d.sente.id, name: d.sente.name }, gote: { id: d.gote.id, name: d.gote.name } },
    // GameCreated written before time controls existed (see @shogi/game's upcast)
    timeControl: d.timeControl ?? { kind: 'unlimited' },
    rated: d.rated ?? false,
    seq: event.seq,
  };
}

/**
 * Folds one event onto the snapshot in place (events at or below its seq are ignored).
 * Returns true when the position or the status changed.
 */
export function applyEvent(s: SnapshotState, event: WireEvent): boolean {
  if (event.seq <= s.seq) return false;
  s.seq = event.seq;
  const p = event.payload;
  switch (event.type) {
    case 'MoveAccepted': {
      const usi = String(p.usi);
      const sfen = String(p.sfen);
      s.moves.push(usi);
      s.sfen = sfen;
      s.ply = typeof p.ply === 'number' ? p.ply : s.moves.length;
      s.sideToMove = sideOfSfen(sfen);
      const clocks = p.clocks as { sente?: unknown; gote?: unknown } | undefined;
      if (clocks && typeof clocks.sente === 'number' && typeof clocks.gote === 'number')
        s.clocks = { sente: clocks.sente, gote: clocks.gote };
      return true;
    }
    case 'GameEnded': {
      const winner = p.winner === 'sente' || p.winner === 'gote' ? p.winner : null;
      s.status = 'ended';
      s.result = { winner, reason: String(p.reason) };
      return true;
    }
    default:
      // submissions, rejections, resignations (a GameEnded follows) and event types this
      // gateway does not know yet move the seq only
      return false;
  }
}
