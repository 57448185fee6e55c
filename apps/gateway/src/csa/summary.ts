/**
 * The Game_Summary a paired player gets before it agrees (CSA server protocol 1.2.1): the
 * game's id in the HTTP API, the players, the clock in CSA's terms and the start position.
 */
import type { TimeControl } from '@shogi/game';
import type { Side } from '@shogi/protocol';
import { csaPositionLines } from '@shogi/rules';

/** Floodgate's move limit: the game is a draw (`#MAX_MOVES`, `#CENSORED`) once this many moves are played. */
export const MAX_MOVES = 256;

export interface SummaryGame {
  /** the game's id in the HTTP API */
  readonly gameId: string;
  readonly senteName: string;
  readonly goteName: string;
  readonly timeControl: TimeControl;
  readonly initialSfen: string;
  readonly maxMoves: number;
}

const mark = (side: Side): string => (side === 'sente' ? '+' : '-');

/** The Time block's clock lines: Total_Time, Byoyomi, and Increment for a Fischer clock with one. */
export function timeLines(tc: TimeControl): string[] {
  switch (tc.kind) {
    case 'byoyomi':
      return [`Total_Time:${tc.mainSeconds}`, `Byoyomi:${tc.byoyomiSeconds}`];
    case 'fischer':
      return [
        `Total_Time:${tc.mainSeconds}`,
        'Byoyomi:0',
        ...(tc.incrementSeconds > 0 ? [`Increment:${tc.incrementSeconds}`] : []),
      ];
    case 'correspondence':
    case 'unlimited':
      // a game of this server's own with no CSA clock: shown (%%SHOW) without one
      return [];
    default:
      return tc satisfies never;
  }
}

/** The summary's lines for the player of `yourSide`, BEGIN to END. */
export function summaryLines(game: SummaryGame, yourSide: Side): string[] {
  if (game.timeControl.kind !== 'byoyomi' && game.timeControl.kind !== 'fischer')
    throw new Error(`a CSA game has a byoyomi or Fischer clock, not ${game.timeControl.kind}`);
  const position = csaPositionLines(game.initialSfen);
  if (position === null) throw new Error(`game ${game.gameId}: bad initial position`);
  const toMove = position[position.length - 1] as string;
  return [
    'BEGIN Game_Summary',
    'Protocol_Version:1.2',
    'Protocol_Mode:Server',
    'Format:Shogi 1.0',
    'Declaration:Jishogi 1.1',
    `Game_ID:${game.gameId}`,
    `Name+:${game.senteName}`,
    `Name-:${game.goteName}`,
    `Your_Turn:${mark(yourSide)}`,
    'Rematch_On_Draw:NO',
    `To_Move:${toMove}`,
    `Max_Moves:${game.maxMoves}`,
    'BEGIN Time',
    'Time_Unit:1sec',
    ...timeLines(game.timeControl),
    'Least_Time_Per_Move:0',
    'END Time',
    'BEGIN Position',
    ...position,
    'END Position',
    'END Game_Summary',
  ];
}
