/** evolve(state, event) -> a new state (the given one is left as it was), O(1) per event (see move-line.ts). */
import type { ColorName } from '@shogi/rules';
import type { Clock } from './clock.js';
import type { GameEvent, MoveAccepted, TakebackAccepted } from './events.js';
import { clockAfterMove, clockOfRecord, newGameClock } from './game-clock.js';
import { advanceLine, startLine } from './move-line.js';
import { type EndingRequest, type GameState, lineOf, type PendingMove, sideOfSfen } from './state.js';

type Draft = { -readonly [K in keyof GameState]: GameState[K] };

/**
 * A field-by-field copy for evolve to change before returning it. Written out, not spread:
 * a spread with overrides made evolve the costliest function of the aggregate
 * (bench/e2e/aggregate.ts).
 */
function copyOf(s: GameState): Draft {
  return {
    status: s.status,
    info: s.info,
    seq: s.seq,
    ply: s.ply,
    sideToMove: s.sideToMove,
    sfen: s.sfen,
    check: s.check,
    pending: s.pending,
    lastSubmissionBy: s.lastSubmissionBy,
    result: s.result,
    endedBy: s.endedBy,
    line: s.line,
    clock: s.clock,
    takebackBy: s.takebackBy,
    takebacks: s.takebacks,
  };
}

export function evolve(state: GameState, event: GameEvent): GameState {
  const next = copyOf(state);
  next.seq = state.seq + 1;
  switch (event.type) {
    case 'GameCreated': {
      const d = event.data;
      const side = sideOfSfen(d.initialSfen);
      next.status = 'ongoing';
      next.info = {
        gameId: d.gameId,
        sente: d.sente,
        gote: d.gote,
        ruleset: d.ruleset,
        handicap: d.handicap,
        initialSfen: d.initialSfen,
        timeControl: d.timeControl,
        rated: d.rated,
        createdAt: d.createdAt,
        clockRules: d.clockRules ?? 'standard',
        illegalMoveLoses: d.illegalMoveLoses ?? false,
        maxMoves: d.maxMoves ?? null,
        noTakebacks: d.noTakebacks === true,
        tournamentId: d.tournamentId ?? null,
      };
      next.sfen = d.initialSfen;
      next.sideToMove = side;
      next.line = startLine(d.initialSfen, d.ruleset);
      next.clock = newGameClock(
        d.timeControl,
        Date.parse(d.createdAt),
        side,
        d.clockRules,
        d.firstMoveSeconds === undefined ? undefined : d.firstMoveSeconds * 1000,
      );
      return next;
    }
    case 'MoveSubmitted': {
      const d = event.data;
      const pending: { -readonly [K in keyof PendingMove]: PendingMove[K] } = {
        seq: next.seq,
        playerId: d.playerId,
        color: d.color,
        usi: d.usi,
        ply: d.ply,
        receivedAt: Date.parse(d.receivedAt),
      };
      if (d.idempotencyKey !== undefined) pending.idempotencyKey = d.idempotencyKey;
      next.pending = [...state.pending, pending];
      const last = state.lastSubmissionBy;
      next.lastSubmissionBy =
        d.color === 'sente' ? { sente: pending, gote: last.gote } : { sente: last.sente, gote: pending };
      return next;
    }
    case 'MoveAccepted': {
      const d = event.data;
      next.ply = state.ply + 1;
      next.sfen = d.sfen;
      next.sideToMove = sideOfSfen(d.sfen);
      next.check = d.check;
      next.pending = withoutSubmission(state.pending, d.submittedSeq);
      next.line = advanceLine(lineOf(state), d.usi);
      next.clock = clockAfter(state, event);
      // a move voids a pending proposal: it was about the position before it
      next.takebackBy = null;
      return next;
    }
    case 'MoveRejected':
      next.pending = withoutSubmission(state.pending, event.data.submittedSeq);
      return next;
    case 'Resigned':
      next.endedBy = endingRequest('Resign', event.data.color, next.seq, event.data.idempotencyKey);
      return next;
    case 'ImpasseDeclared':
      next.endedBy = endingRequest('DeclareImpasse', event.data.color, next.seq, event.data.idempotencyKey);
      return next;
    case 'TakebackProposed':
      next.takebackBy = event.data.color;
      return next;
    case 'Berserked': {
      const clock = state.clock;
      if (clock === null) return next;
      const color = event.data.color;
      const halved = { ...clock[color], mainMs: Math.floor(clock[color].mainMs / 2) };
      next.clock = color === 'sente' ? { ...clock, sente: halved } : { ...clock, gote: halved };
      return next;
    }
    case 'TakebackDeclined':
      next.takebackBy = null;
      return next;
    case 'TakebackAccepted':
      return takenBack(next, state, event);
    case 'GameEnded': {
      const d = event.data;
      next.status = 'ended';
      next.takebackBy = null;
      next.result = { winner: d.winner, reason: d.reason, at: d.at };
      // a resignation or declaration that the ply rule made an abort keeps its own request (the Resigned before)
      if (d.abortedBy !== undefined && state.endedBy === null)
        next.endedBy = endingRequest('Abort', d.abortedBy, next.seq, d.idempotencyKey);
      return next;
    }
    default: {
      const never: never = event;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

/** The state after a takeback: the line back by `plies` links, the recorded position and clocks. */
function takenBack(next: Draft, state: GameState, event: TakebackAccepted): GameState {
  const d = event.data;
  let line = lineOf(state);
  for (let i = 0; i < d.plies; i++) {
    if (line.previous === null) throw new Error(`TakebackAccepted of ${d.plies} moves at ply ${state.ply}`);
    line = line.previous;
  }
  next.line = line;
  next.ply = d.ply;
  next.sfen = d.sfen;
  next.sideToMove = sideOfSfen(d.sfen);
  next.check = d.check;
  next.takebackBy = null;
  next.takebacks = state.takebacks + 1;
  const clock = state.clock;
  if (clock !== null && d.clock !== undefined)
    next.clock = clockOfRecord(clock.timeControl, d.clock, next.sideToMove, clock.rules);
  return next;
}

const endingRequest = (
  command: EndingRequest['command'],
  color: ColorName,
  seq: number,
  idempotencyKey: string | undefined,
): EndingRequest => (idempotencyKey === undefined ? { command, color, seq } : { command, color, seq, idempotencyKey });

const withoutSubmission = (pending: readonly PendingMove[], seq: number): readonly PendingMove[] =>
  pending.length === 1 && pending[0]?.seq === seq ? [] : pending.filter((p) => p.seq !== seq);

/**
 * The clock after an accepted move: as recorded in the event (decide computed it from the
 * receive times), else computed again from the submission's receive time.
 */
function clockAfter(state: GameState, event: MoveAccepted): Clock | null {
  const clock = state.clock;
  if (clock === null) return null;
  const recorded = event.data.clock;
  if (recorded !== undefined)
    return clockOfRecord(clock.timeControl, recorded, sideOfSfen(event.data.sfen), clock.rules);
  const submitted = state.pending.find((p) => p.seq === event.data.submittedSeq);
  if (submitted === undefined) throw new Error(`MoveAccepted for seq ${event.data.submittedSeq}: no such submission`);
  const timing = clockAfterMove(clock, state.ply, submitted.receivedAt);
  // the verdict was given: a late move cannot have been accepted, so keep the turn moving
  return timing.kind === 'in_time' ? timing.clock : { ...clock, toMove: sideOfSfen(event.data.sfen) };
}

/** Folds events from the initial state (or from `state`). */
export function fold(events: Iterable<GameEvent>, state: GameState): GameState {
  let s = state;
  for (const e of events) s = evolve(s, e);
  return s;
}
