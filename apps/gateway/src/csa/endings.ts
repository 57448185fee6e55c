/**
 * How a game's end reads to each CSA player (CSA server protocol 1.2.1, as shogi-server writes
 * it): the special move when there is one, the reason, then `#WIN`, `#LOSE` or `#DRAW`.
 *
 * This server ends a game at the mating move (the rules know checkmate); on Floodgate the
 * mated engine resigns a moment later. A checkmate, and a stalemate a side loses, read as that
 * resignation, `%TORYO` `#RESIGN`: the lines every CSA client knows for the end of a game it
 * lost on the board.
 */
import type { EndReason } from '@shogi/game';
import type { Side } from '@shogi/protocol';

export interface CsaEnding {
  readonly winner: Side | null;
  readonly reason: EndReason;
  /** an impasse declaration's verdict (ImpasseDeclared), when the game ended by one */
  readonly declarationValid: boolean | null;
}

const result = (winner: Side | null, side: Side): string =>
  winner === null ? '#DRAW' : winner === side ? '#WIN' : '#LOSE';

/** The lines of the end of the game for the player of `side`. */
export function endingLines(end: CsaEnding, side: Side): string[] {
  const { winner, reason } = end;
  const decided = result(winner, side);
  switch (reason) {
    case 'resignation':
    case 'checkmate':
      return ['%TORYO', '#RESIGN', decided];
    case 'stalemate':
      return winner === null ? ['#DRAW'] : ['%TORYO', '#RESIGN', decided];
    case 'impasse':
      return ['%KACHI', end.declarationValid === false ? '#ILLEGAL_MOVE' : '#JISHOGI', decided];
    case 'timeout':
      return ['#TIME_UP', decided];
    case 'sennichite':
      return ['#SENNICHITE', '#DRAW'];
    case 'perpetual_check':
      return ['#OUTE_SENNICHITE', decided];
    case 'abort':
      return ['#CHUDAN'];
    case 'illegal_move':
      return ['#ILLEGAL_MOVE', decided];
    case 'max_moves':
      return ['#MAX_MOVES', '#CENSORED'];
    // an imported record's agreed draw: the protocol has no line for its reason
    case 'draw':
      return ['#DRAW'];
    default:
      return reason satisfies never;
  }
}
