/**
 * The gameState lines that a game's events make, folded onto the game's snapshot: one a move,
 * and one for the ending. A move and the ending it brings (a mate, a repetition) come in one
 * batch and make one line, with the move and the final status: clients that follow a game by
 * the last move of each state (lishogi-bot plays `moves[-1]` on its board) must see each
 * move once. Pure but for the snapshot, which is folded in place as the spectators' is.
 */
import type { WireEvent } from '@shogi/protocol';
import { applyEvent, clockNow, type SnapshotState } from '../domain/game-snapshot.js';
import { gameStateOf, type LishogiGameState } from './game-shapes.js';

export interface StateLines {
  readonly lines: LishogiGameState[];
  /** the game has ended: the last line is its final state */
  readonly ended: boolean;
}

/** Folds `events` (in seq order) onto `snapshot`; the clocks of each line are those at `now`. */
export function stateLines(snapshot: SnapshotState, events: readonly WireEvent[], now: number): StateLines {
  const lines: LishogiGameState[] = [];
  const line = () => lines.push(gameStateOf(snapshot, clockNow(snapshot, now)));
  let changed = false;
  for (const event of events) {
    if (snapshot.status === 'ended') break;
    if (event.type === 'MoveAccepted' && changed) {
      line();
      changed = false;
    }
    if (applyEvent(snapshot, event)) changed = true;
  }
  if (changed) line();
  return { lines, ended: snapshot.status === 'ended' };
}
