/**
 * What an analysis needs of a game, read from its events: the start position, the ruleset,
 * the accepted moves in order, and whether it has ended. The log, not a projection, is the
 * source: the games table holds neither the start position nor the moves.
 */
import type { GameEvent } from '@shogi/game';
import type { Ruleset } from '@shogi/rules';

export interface GameRecord {
  readonly initialSfen: string;
  readonly ruleset: Ruleset;
  readonly moves: readonly string[];
  readonly ended: boolean;
}

/** The game's record; null when the events do not start with its creation. */
export function gameRecordOf(events: readonly GameEvent[]): GameRecord | null {
  const [first] = events;
  if (first?.type !== 'GameCreated') return null;
  const moves: string[] = [];
  let ended = false;
  for (const event of events) {
    if (event.type === 'MoveAccepted') moves.push(event.data.usi);
    // moves taken back are no part of the game
    else if (event.type === 'TakebackAccepted') moves.length = event.data.ply;
    else if (event.type === 'GameEnded') ended = true;
  }
  return { initialSfen: first.data.initialSfen, ruleset: first.data.ruleset, moves, ended };
}
