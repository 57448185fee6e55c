/**
 * A CSA player's view of its game, folded from the game's wire events (in seq order, as a
 * Feed gives them), and the protocol lines each event makes for that player: every accepted
 * move as `<move>,T<seconds>` (the time from the recorded receive times, CSA's rounding), the
 * end as endings.ts writes it. Nothing else of the game reaches the player: a player's
 * submissions, rejections and comments make no line. Pure, but for the view folded in place.
 */
import { csaSecondsUsed, type EndReason } from '@shogi/game';
import type { Side, WireEvent } from '@shogi/protocol';
import { csaOfUsiMove, sideOfSfen } from '@shogi/rules';
import { endingLines } from './endings.js';
import { moveEcho } from './lines.js';

export interface PlayView {
  readonly gameId: string;
  readonly side: Side;
  /** the position before the next move */
  sfen: string;
  ply: number;
  sideToMove: Side;
  /** when the side to move's turn began (ms): the game's start, then the last move's receive time */
  turnStartedAt: number;
  /** this player's submission awaits its verdict */
  pending: boolean;
  declarationValid: boolean | null;
  ended: boolean;
}

export function newPlayView(
  game: { readonly gameId: string; readonly initialSfen: string; readonly createdAt: string },
  side: Side,
): PlayView {
  return {
    gameId: game.gameId,
    side,
    sfen: game.initialSfen,
    ply: 0,
    sideToMove: sideOfSfen(game.initialSfen),
    turnStartedAt: Date.parse(game.createdAt),
    pending: false,
    declarationValid: null,
    ended: false,
  };
}

/** The player may send a move now: its turn, and no move of its own awaiting its verdict. */
export const onMove = (view: PlayView): boolean => !view.ended && view.sideToMove === view.side && !view.pending;

const sideOf = (value: unknown): Side | null => (value === 'sente' || value === 'gote' ? value : null);

/** Folds `events` onto `view` and returns the lines they make for its player. */
export function playLines(view: PlayView, events: readonly WireEvent[]): string[] {
  const lines: string[] = [];
  for (const event of events) {
    if (view.ended) break;
    const p = event.payload;
    switch (event.type) {
      case 'MoveSubmitted':
        if (sideOf(p.color) === view.side) view.pending = true;
        break;
      case 'MoveRejected':
        if (view.sideToMove === view.side) view.pending = false;
        break;
      case 'MoveAccepted': {
        const usi = String(p.usi);
        const move = csaOfUsiMove(view.sfen, usi);
        if (move === null) throw new Error(`game ${view.gameId}: accepted move ${usi} cannot be written in CSA`);
        const movedAt = Date.parse(String((p.clock as { movedAt?: unknown } | undefined)?.movedAt ?? event.recordedAt));
        lines.push(moveEcho(move, csaSecondsUsed(view.turnStartedAt, movedAt)));
        if (view.sideToMove === view.side) view.pending = false;
        view.sfen = String(p.sfen);
        view.ply = Number(p.ply);
        view.sideToMove = sideOfSfen(view.sfen);
        view.turnStartedAt = movedAt;
        break;
      }
      case 'ImpasseDeclared':
        view.declarationValid = p.valid === true;
        break;
      case 'GameEnded':
        view.ended = true;
        lines.push(
          ...endingLines(
            {
              winner: sideOf(p.winner),
              reason: String(p.reason) as EndReason,
              declarationValid: view.declarationValid,
            },
            view.side,
          ),
        );
        break;
      default:
        // GameCreated, Resigned (a GameEnded follows), and types this gateway does not know
        break;
    }
  }
  return lines;
}
