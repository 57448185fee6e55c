/**
 * The verdicts on recorded submissions, as the worker gives them: replayed through the
 * rules' `PositionHistory` (repetition, perpetual check per ruleset, uchifuzume...), the
 * clock first. Only decide.ts calls these; they leave the state they are given as it was.
 */
import { type ColorName, type Outcome, toSfen } from '@shogi/rules';
import type { GameEnded, GameEvent, MoveAccepted, MoveRejected } from './events.js';
import { evolve } from './evolve.js';
import { clockAfterMove, type Flag, recordClock } from './game-clock.js';
import { playAt } from './move-line.js';
import { colorName, type GameState, lineOf, opponentOf, type PendingMove } from './state.js';

/** The verdicts on every pending submission up to `seq`, and the state after them. */
export function verdicts(state: GameState, seq: number, now: Date): { events: GameEvent[]; state: GameState } {
  const events: GameEvent[] = [];
  let working = state;
  for (const p of state.pending) {
    if (p.seq > seq) break;
    for (const e of verdict(p, working, now)) {
      events.push(e);
      working = evolve(working, e);
    }
  }
  return { events, state: working };
}

/**
 * The end of a game whose side to move ran out of time: on time, or aborted before its first
 * move, but in a tournament's game, which is lost on time then too (lishogi's `NoStart`).
 */
export function flagEnd(f: Flag, state: GameState): GameEnded {
  const onTime = f.kind === 'timeout' || state.info?.tournamentId != null;
  return {
    type: 'GameEnded',
    data: {
      winner: onTime ? opponentOf(f.color) : null,
      reason: onTime ? 'timeout' : 'abort',
      at: new Date(f.at).toISOString(),
    },
  };
}

/** The end of a game where an illegal move loses, after `color`'s. */
export const illegalMoveEnd = (color: ColorName, at: Date): GameEnded => ({
  type: 'GameEnded',
  data: { winner: opponentOf(color), reason: 'illegal_move', at: at.toISOString() },
});

/**
 * The verdicts of the submissions still pending when a player ends the game: game_over, as
 * the worker would give them. A game then never ends with a submission waiting for a job
 * that was lost, which the sweeper (looking at ongoing games) would not queue again.
 */
export const verdictsAtEnd = (state: GameState): MoveRejected[] =>
  state.pending.map((p) => ({
    type: 'MoveRejected',
    data: { submittedSeq: p.seq, usi: p.usi, ply: p.ply, reason: 'game_over' },
  }));

/** The verdict on one submission in `state`: MoveRejected, or MoveAccepted (+ GameEnded). */
function verdict(p: PendingMove, state: GameState, now: Date): GameEvent[] {
  const rejected = (reason: MoveRejected['data']['reason']): MoveRejected => ({
    type: 'MoveRejected',
    data: { submittedSeq: p.seq, usi: p.usi, ply: p.ply, reason },
  });
  if (state.status === 'ended') return [rejected('game_over')];
  if (p.ply !== state.ply) return [rejected('stale_ply')];
  if (p.color !== state.sideToMove) return [rejected('not_your_turn')];
  // the clock first: a move that came after its time ran out is not looked at
  const timing = state.clock === null ? null : clockAfterMove(state.clock, state.ply, p.receivedAt);
  if (timing?.kind === 'late')
    return [rejected('timeout'), flagEnd({ kind: timing.flag, color: p.color, at: timing.at }, state)];
  // the evolve of this MoveAccepted finds the move played (move-line.ts)
  const { played, history } = playAt(lineOf(state), p.usi);
  if (!played.ok)
    return state.info?.illegalMoveLoses === true
      ? [rejected(played.error), illegalMoveEnd(p.color, now)]
      : [rejected(played.error)];
  const accepted: MoveAccepted = {
    type: 'MoveAccepted',
    data: {
      submittedSeq: p.seq,
      ply: state.ply + 1,
      usi: p.usi,
      sfen: toSfen(history.position),
      check: history.position.inCheck(),
      ...(timing === null ? {} : { clock: recordClock(timing.clock, state.ply + 1) }),
    },
  };
  const ended = endOf(played.value, now) ?? moveLimitEnd(state, now);
  return ended === null ? [accepted] : [accepted, ended];
}

/** The draw of a game whose move limit the accepted move reached (a move that ended it otherwise ends it so). */
function moveLimitEnd(state: GameState, now: Date): GameEnded | null {
  const limit = state.info?.maxMoves ?? null;
  if (limit === null || state.ply + 1 < limit) return null;
  return { type: 'GameEnded', data: { winner: null, reason: 'max_moves', at: now.toISOString() } };
}

function endOf(o: Outcome, now: Date): GameEnded | null {
  const at = now.toISOString();
  const ended = (winner: ColorName | null, reason: GameEnded['data']['reason']): GameEnded => ({
    type: 'GameEnded',
    data: { winner, reason, at },
  });
  switch (o.status) {
    case 'ongoing':
      return null;
    case 'checkmate':
      return ended(colorName(o.winner), 'checkmate');
    case 'stalemate':
      return ended(o.winner === null ? null : colorName(o.winner), 'stalemate');
    case 'sennichite':
      return ended(null, 'sennichite');
    case 'perpetual_check':
      return ended(colorName(o.winner), 'perpetual_check');
    case 'impasse':
      return ended(colorName(o.winner), 'impasse');
    default: {
      const never: never = o;
      throw new Error(`unknown outcome ${JSON.stringify(never)}`);
    }
  }
}
