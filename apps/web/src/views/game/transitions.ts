/**
 * How the page's state moves on: a snapshot from the watch socket starts it over, events
 * carry it forward, a submitted move's 202 meets its verdict whichever arrives first, and
 * the user steps through the positions. No DOM, no I/O: what a screen reader should hear is
 * returned for the page to announce.
 */
import type { GameSnapshot, WireEvent } from '@shogi/protocol';
import { type ClockState, initialClock, periodLength, stoppedClock } from '../../shogi/clock.js';
import { goTo, isLive, type Step, step } from '../../shogi/cursor.js';
import { GameHistory } from '../../shogi/history.js';
import { resultText } from '../../shogi/result.js';
import { type GamePageState, latestGame, mySide, type Side, sideOf } from './state.js';
import { moveAnnouncement, refusal } from './wording.js';

type Payload = WireEvent['payload'];

export function clockOfSnapshot(s: GameSnapshot, now: number): ClockState | null {
  return s.clock
    ? {
        sente: s.clock.sente,
        gote: s.clock.gote,
        running: s.clock.running,
        since: Date.parse(s.clock.at),
        periodLength: periodLength(s.timeControl),
      }
    : initialClock(s.timeControl, now);
}

/** Starts over from a snapshot: the first one, or one after a reconnect. */
export function resetFrom(state: GamePageState, s: GameSnapshot, now: number): void {
  state.snap = s;
  const history = new GameHistory(s.initialSfen, s.ruleset);
  state.history = history;
  for (const usi of s.moves) history.play(usi);
  // a snapshot after a reconnect keeps the position the user was looking at
  if (state.cursor.ply !== null) state.cursor = goTo(state.cursor, state.cursor.ply, history.length);
  state.clock = clockOfSnapshot(s, now);
  state.selection = null;
}

/** Carries the state through a batch of events; returns the announcements, in order. */
export function applyEvents(state: GamePageState, events: readonly WireEvent[]): string[] {
  const said: string[] = [];
  if (!state.snap) return said;
  let s: GameSnapshot = state.snap;
  for (const e of events) {
    switch (e.type) {
      case 'MoveAccepted':
        s = moveAccepted(state, s, e.payload, said);
        break;
      case 'MoveRejected':
        moveRejected(state, e.payload);
        break;
      case 'GameEnded':
        s = { ...gameEnded(state, s, e.payload, said), takeback: null };
        break;
      case 'TakebackProposed':
        s = { ...s, takeback: e.payload.color === 'gote' ? 'gote' : 'sente' };
        said.push(takebackProposedText(state, s.takeback ?? 'sente'));
        break;
      case 'TakebackDeclined':
        if (s.takeback !== null) said.push('The takeback was declined.');
        s = { ...s, takeback: null };
        break;
      case 'TakebackAccepted':
        s = takebackAccepted(state, s, e.payload, said);
        break;
      case 'Berserked':
        berserked(state, e.payload.color === 'gote' ? 'gote' : 'sente', said);
        break;
      default:
        break;
    }
  }
  const game = latestGame(state);
  if (game) s = { ...s, sideToMove: sideOf(game.position.side) };
  state.snap = s;
  return said;
}

/** A berserk halves the side's main time (before its first move, so its clock is not running). */
function berserked(state: GamePageState, side: 'sente' | 'gote', said: string[]): void {
  const c = state.clock;
  if (c === null) return;
  const halved = { ...c[side], mainMs: Math.floor(c[side].mainMs / 2) };
  state.clock = side === 'sente' ? { ...c, sente: halved } : { ...c, gote: halved };
  said.push(`${side === 'sente' ? 'Sente' : 'Gote'} berserks: half the main time.`);
}

function moveAccepted(state: GamePageState, s: GameSnapshot, p: Payload, said: string[]): GameSnapshot {
  const usi = String(p.usi);
  const history = state.history;
  if (history && Number(p.ply) === history.game.ply + 1) {
    const text = history.play(usi);
    if (text !== null) said.push(moveAnnouncement(history.length, text, usi, history.game.position.inCheck()));
  }
  // a move voids a pending takeback proposal
  const next = { ...s, moves: [...s.moves, usi], ply: s.ply + 1, sfen: String(p.sfen ?? s.sfen), takeback: null };
  const c = p.clock as { sente: ClockState['sente']; gote: ClockState['gote']; movedAt: string } | undefined;
  const game = latestGame(state);
  // the clocks start once both sides have made their first move
  const running: Side | null = Number(p.ply) >= 2 && game ? sideOf(game.position.side) : null;
  if (c) {
    const since = Date.parse(c.movedAt);
    state.clock = { sente: c.sente, gote: c.gote, running, since, periodLength: periodLength(next.timeControl) };
  }
  state.verdicts.set(Number(p.submittedSeq), null);
  if (p.submittedSeq === state.pendingSeq) state.pendingSeq = null;
  state.selection = null;
  // a note about an earlier position (a refused or mistyped move, a hint) is stale once the game moves on
  state.message = '';
  return next;
}

const takebackProposedText = (state: GamePageState, by: Side): string =>
  mySide(state) === by
    ? 'You proposed a takeback.'
    : `${state.snap?.players[by].name ?? 'A player'} proposes a takeback.`;

/**
 * The moves taken back leave the game: the positions are played again from the start (a
 * takeback is rare, and the history keeps no way back), the clocks are the event's.
 */
function takebackAccepted(state: GamePageState, s: GameSnapshot, p: Payload, said: string[]): GameSnapshot {
  const ply = Number(p.ply);
  const moves = s.moves.slice(0, ply);
  const history = new GameHistory(s.initialSfen, s.ruleset);
  for (const usi of moves) history.play(usi);
  state.history = history;
  if (state.cursor.ply !== null) state.cursor = goTo(state.cursor, Math.min(state.cursor.ply, ply), history.length);
  state.selection = null;
  state.premove = null;
  state.confirming = null;
  state.choice = null;
  const c = p.clock as { sente: ClockState['sente']; gote: ClockState['gote']; movedAt: string } | undefined;
  const running: Side | null = ply >= 2 ? sideOf(history.game.position.side) : null;
  if (c)
    state.clock = {
      sente: c.sente,
      gote: c.gote,
      running,
      since: Date.parse(c.movedAt),
      periodLength: periodLength(s.timeControl),
    };
  const undone = Number(p.plies);
  said.push(undone === 1 ? 'A move was taken back.' : `${undone} moves were taken back.`);
  return { ...s, moves, ply, sfen: String(p.sfen ?? s.sfen), takeback: null };
}

function moveRejected(state: GamePageState, p: Payload): void {
  state.verdicts.set(Number(p.submittedSeq), String(p.reason));
  if (p.submittedSeq === state.pendingSeq) {
    state.pendingSeq = null;
    state.message = refusal(String(p.usi), String(p.reason));
  }
}

function gameEnded(state: GamePageState, s: GameSnapshot, p: Payload, said: string[]): GameSnapshot {
  const result = { winner: (p.winner ?? null) as Side | null, reason: String(p.reason) };
  const next: GameSnapshot = { ...s, status: 'ended', result };
  // the banner says how it ended; a note about the last position would read as current
  state.message = '';
  const at = Date.parse(String(p.at));
  const loserOnTime = result.reason === 'timeout' && result.winner !== null ? opponent(result.winner) : null;
  if (state.clock) state.clock = stoppedClock(state.clock, Number.isNaN(at) ? Date.now() : at, loserOnTime);
  said.push(resultText(result, { sente: next.players.sente.name, gote: next.players.gote.name }));
  return next;
}

const opponent = (side: Side): Side => (side === 'sente' ? 'gote' : 'sente');

/** A move goes out: the note clears, and the half-made move with it. */
export function startSubmission(state: GamePageState): void {
  state.sending = true;
  state.message = '';
  state.selection = null;
}

/**
 * The 202 for a submitted move names its seq: its verdict may already be in, or it is
 * awaited (and the board stays closed meanwhile).
 */
export function settleSubmission(state: GamePageState, seq: number, usi: string): void {
  const verdict = state.verdicts.get(seq);
  if (verdict === undefined) state.pendingSeq = seq;
  else if (verdict !== null) state.message = refusal(usi, verdict);
}

/** Shows a position: a step (first, back, forward, last) or a ply; false when there is no game yet. */
export function showPosition(state: GamePageState, to: Step | number): boolean {
  const history = state.history;
  if (!history) return false;
  state.cursor =
    typeof to === 'number' ? goTo(state.cursor, to, history.length) : step(state.cursor, to, history.length);
  // a half-made move belongs to the live position
  if (!isLive(state.cursor)) state.selection = null;
  return true;
}
