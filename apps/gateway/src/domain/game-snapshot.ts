/**
 * What a spectator sees of a game, folded from the wire events: the position after the
 * last accepted move (MoveAccepted carries its SFEN), the moves, the players, the status.
 * The gateway keeps one per watched game and folds each published batch onto it, so a new
 * watcher gets its snapshot without a read, and the NDJSON stream folds its own (delayed) one.
 */
import {
  advanceClockView,
  type ClockRules,
  type ClockView,
  clockStarted,
  clockView,
  clockViewOfRecord,
  type EndReason,
  newGameClock,
  type RecordedClock,
  sideOfSfen,
  stopClockView,
} from '@shogi/game';
import type { GameSnapshot, GameView, TimeControl, WireEvent } from '@shogi/protocol';

/**
 * A snapshot without the spectator count (that is per gateway and changes on its own). Its
 * `clock` holds at `clock.at` (the last event that set it): `clockNow` gives it at read time.
 */
export type SnapshotState = Omit<GameSnapshot, 'spectators' | 'moves'> & { moves: string[] };

/** The snapshot's clocks at `now`: the running side charged since the last event. */
export const clockNow = (s: SnapshotState, now: number = Date.now()): ClockView | null =>
  s.clock == null ? null : advanceClockView(s.clock, s.timeControl, now);

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
    clock: view.clock,
    takeback: view.takeback,
    ...(view.tournamentId === undefined ? {} : { tournamentId: view.tournamentId }),
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
  createdAt: string;
  clockRules?: ClockRules;
  tournamentId?: string;
}

/** The snapshot right after GameCreated, or null when the event is not one. */
export function snapshotOfCreated(event: WireEvent): SnapshotState | null {
  if (event.type !== 'GameCreated') return null;
  const d = event.payload as unknown as CreatedPayload;
  // GameCreated written before time controls existed (see @shogi/game's upcast)
  const timeControl = d.timeControl ?? { kind: 'unlimited' };
  const createdAt = Date.parse(d.createdAt);
  const clock = newGameClock(timeControl, createdAt, sideOfSfen(d.initialSfen), d.clockRules);
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
    timeControl,
    rated: d.rated ?? false,
    clock: clock === null ? null : clockView(clock, 0, null, createdAt),
    takeback: null,
    ...(d.tournamentId === undefined ? {} : { tournamentId: d.tournamentId }),
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
      s.takeback = null;
      const clock = p.clock as RecordedClock | undefined;
      // clocks that ran before (from the start, under CSA rules) keep running
      if (clock !== undefined && s.clock !== null)
        s.clock = clockViewOfRecord(clock, s.ply, s.sideToMove, s.clock.started || clockStarted(s.ply));
      return true;
    }
    case 'TakebackProposed':
      s.takeback = p.color === 'gote' ? 'gote' : 'sente';
      return true;
    case 'Berserked': {
      // the berserker's main time halved, as the game's state does
      if (s.clock !== null) {
        const side = p.color === 'gote' ? 'gote' : 'sente';
        const halved = { ...s.clock[side], mainMs: Math.floor(s.clock[side].mainMs / 2) };
        s.clock = side === 'sente' ? { ...s.clock, sente: halved } : { ...s.clock, gote: halved };
      }
      return true;
    }
    case 'TakebackDeclined':
      s.takeback = null;
      return true;
    case 'TakebackAccepted': {
      const sfen = String(p.sfen);
      const ply = Number(p.ply);
      s.moves.length = ply;
      s.ply = ply;
      s.sfen = sfen;
      s.sideToMove = sideOfSfen(sfen);
      s.takeback = null;
      const clock = p.clock as RecordedClock | undefined;
      // back before both first moves the first-move timer runs again, as in the game's state
      if (clock !== undefined && s.clock !== null) s.clock = clockViewOfRecord(clock, ply, s.sideToMove);
      return true;
    }
    case 'GameEnded': {
      const winner = p.winner === 'sente' || p.winner === 'gote' ? p.winner : null;
      s.status = 'ended';
      s.takeback = null;
      s.result = { winner, reason: String(p.reason) };
      if (s.clock !== null)
        s.clock = stopClockView(s.clock, s.timeControl, {
          at: String(p.at),
          reason: s.result.reason as EndReason,
          winner,
        });
      return true;
    }
    default:
      // submissions, rejections, resignations (a GameEnded follows) and event types this
      // gateway does not know yet move the seq only
      return false;
  }
}
