/** evolve(state, event) -> state: pure over the observable state, O(1) per event (see state.ts). */
import type { Clock } from './clock.js';
import type { GameEvent, MoveAccepted } from './events.js';
import { clockAfterMove, clockOfRecord, newGameClock } from './game-clock.js';
import { type GameState, type Lineage, sameMove, sideOfSfen } from './state.js';

export function evolve(state: GameState, event: GameEvent): GameState {
  const seq = state.seq + 1;
  switch (event.type) {
    case 'GameCreated': {
      const d = event.data;
      const lineage: Lineage = { initialSfen: d.initialSfen, ruleset: d.ruleset, moves: [], game: null };
      return {
        ...state,
        seq,
        status: 'ongoing',
        info: {
          gameId: d.gameId,
          sente: d.sente,
          gote: d.gote,
          ruleset: d.ruleset,
          handicap: d.handicap,
          initialSfen: d.initialSfen,
          timeControl: d.timeControl,
          rated: d.rated,
          createdAt: d.createdAt,
        },
        sfen: d.initialSfen,
        sideToMove: sideOfSfen(d.initialSfen),
        lineage,
        clock: newGameClock(d.timeControl, Date.parse(d.createdAt), sideOfSfen(d.initialSfen)),
      };
    }
    case 'MoveSubmitted': {
      const d = event.data;
      const pending = {
        seq,
        playerId: d.playerId,
        color: d.color,
        usi: d.usi,
        ply: d.ply,
        receivedAt: Date.parse(d.receivedAt),
        ...(d.idempotencyKey === undefined ? {} : { idempotencyKey: d.idempotencyKey }),
      };
      return {
        ...state,
        seq,
        pending: [...state.pending, pending],
        lastSubmissionBy: { ...state.lastSubmissionBy, [d.color]: pending },
      };
    }
    case 'MoveAccepted': {
      const d = event.data;
      return {
        ...state,
        seq,
        ply: state.ply + 1,
        sfen: d.sfen,
        sideToMove: sideOfSfen(d.sfen),
        check: d.check,
        pending: state.pending.filter((p) => p.seq !== d.submittedSeq),
        lineage: advance(state, event),
        clock: clockAfter(state, event),
      };
    }
    case 'MoveRejected': {
      const submitted = event.data.submittedSeq;
      return { ...state, seq, pending: state.pending.filter((p) => p.seq !== submitted) };
    }
    case 'Resigned':
    case 'ImpasseDeclared':
      return { ...state, seq };
    case 'GameEnded': {
      const d = event.data;
      return { ...state, seq, status: 'ended', result: { winner: d.winner, reason: d.reason, at: d.at } };
    }
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The clock after an accepted move: as recorded in the event (decide computed it from the
 * receive times), else computed again from the submission's receive time.
 */
function clockAfter(state: GameState, event: MoveAccepted): Clock | null {
  const clock = state.clock;
  if (clock === null) return null;
  const recorded = event.data.clock;
  if (recorded !== undefined) return clockOfRecord(clock.timeControl, recorded, sideOfSfen(event.data.sfen));
  const submitted = state.pending.find((p) => p.seq === event.data.submittedSeq);
  if (submitted === undefined) throw new Error(`MoveAccepted for seq ${event.data.submittedSeq}: no such submission`);
  const timing = clockAfterMove(clock, state.ply, submitted.receivedAt);
  // the verdict was given: a late move cannot have been accepted, so keep the turn moving
  return timing.kind === 'in_time' ? timing.clock : { ...clock, toMove: sideOfSfen(event.data.sfen) };
}

/** The lineage after an accepted move: appended at the tip, reused when already there, else branched. */
function advance(state: GameState, event: MoveAccepted): Lineage | null {
  const lineage = state.lineage;
  if (lineage === null) throw new Error('MoveAccepted before GameCreated');
  const usi = event.data.usi;
  const at = state.ply;
  if (lineage.moves.length === at) {
    lineage.moves.push(usi);
    const game = lineage.game;
    // keep a built game current; an unbuilt one stays lazy (folding never pays for rules)
    if (game !== null && game.ply === at) {
      const played = game.playUsi(usi);
      if (!played.ok) throw new Error(`accepted move ${usi} at ply ${at + 1} is illegal on replay: ${played.error}`);
    }
    return lineage;
  }
  const there = lineage.moves[at];
  if (there !== undefined && sameMove(there, usi)) return lineage; // played tentatively by decide
  const moves = lineage.moves.slice(0, at);
  moves.push(usi);
  return { initialSfen: lineage.initialSfen, ruleset: lineage.ruleset, moves, game: null };
}

/** Folds events from the initial state (or from `state`). */
export function fold(events: Iterable<GameEvent>, state: GameState): GameState {
  let s = state;
  for (const e of events) s = evolve(s, e);
  return s;
}
