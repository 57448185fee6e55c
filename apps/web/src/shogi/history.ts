/**
 * A game's record as the game page keeps it: the rules' PositionHistory replayed from the
 * initial SFEN, and the board after every move, so stepping back to any ply costs nothing and asks the
 * server nothing. Pure: no DOM, no I/O.
 */
import { moveTo, type PositionHistory, parseUsi, type Ruleset } from '@shogi/rules';
import { type BoardState, boardOf, newGame } from './model.js';
import { type Notation, notateMove } from './notation.js';

export class GameHistory {
  /** the live game: its position is the latest, the one moves are made from */
  readonly game: PositionHistory;
  /** boards[k]: the board after k moves (boards[0] is the initial position) */
  private readonly boards: BoardState[];
  private readonly usi: string[] = [];
  /** each move in every notation, so a change of the setting costs no replay */
  private readonly notated: Record<Notation, string>[] = [];
  // the previous move's destination, for 同 in the notation
  private previousTo: number | null = null;

  constructor(initialSfen: string, ruleset: Ruleset) {
    this.game = newGame(initialSfen, ruleset);
    this.boards = [boardOf(this.game)];
  }

  /** Plays the next move; its Japanese notation, or null (and nothing changes) when it does not replay. */
  play(usi: string): string | null {
    const texts = notateMove(this.game, usi, this.previousTo);
    if (!this.game.playUsi(usi).ok) return null;
    this.usi.push(usi);
    this.notated.push(texts);
    this.previousTo = moveTo(parseUsi(usi));
    this.boards.push(boardOf(this.game));
    return texts.japanese;
  }

  /** The number of moves played: the latest ply. */
  get length(): number {
    return this.usi.length;
  }
  /** The moves in USI, in order. */
  get moves(): readonly string[] {
    return this.usi;
  }
  /** The moves in Japanese notation, in order. */
  get kifu(): readonly string[] {
    return this.notation('japanese');
  }
  /** The moves in the notation chosen, in order. */
  notation(notation: Notation): string[] {
    return this.notated.map((n) => n[notation]);
  }

  /** The board after `ply` moves, clamped to the game. */
  boardAt(ply: number): BoardState {
    return this.boards[Math.max(0, Math.min(ply, this.length))] as BoardState;
  }
  /** The move that reached `ply` (none for the initial position). */
  moveAt(ply: number): string | null {
    return ply >= 1 ? (this.usi[ply - 1] ?? null) : null;
  }
}
