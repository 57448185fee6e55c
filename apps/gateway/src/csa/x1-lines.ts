/**
 * The x1 mode's answers (shogi-server's extended mode): every line `##[COMMAND] …`, a list
 * ended by `##[COMMAND] +OK`. Pure: values in, lines out.
 */
import type { GameView } from '@shogi/protocol';
import { csaPositionLines } from '@shogi/rules';
import { x1Line } from './lines.js';
import { timeLines } from './summary.js';

/** What %%WHO shows of a connected player. */
export interface Presence {
  readonly name: string;
  readonly mode: 'x1' | 'CSA';
  /** shogi-server's statuses: connected, game_waiting, agree_waiting, game */
  readonly status: string;
}

const ok = (command: string): string => x1Line(command, '+OK');

export const whoLines = (players: readonly Presence[]): string[] => [
  ...players.map((p) => x1Line('WHO', `${p.name} ${p.mode} ${p.status}`)),
  ok('WHO'),
];

export const listLines = (gameIds: readonly string[]): string[] => [
  ...gameIds.map((id) => x1Line('LIST', id)),
  ok('LIST'),
];

export const chatLine = (from: string, text: string): string => `##[CHAT][${from}] ${text}`;

export const HELP_LINES = [
  x1Line(
    'HELP',
    'available commands "%%WHO", "%%LIST", "%%SHOW game_id", "%%MONITOR2ON game_id", "%%MONITOR2OFF game_id", "%%CHAT str", "%%GAME game_name +|-|*", "%%CHALLENGE game_name +|-|*", "%%GAME"',
  ),
];

export const versionLines = (version: string): string[] => [x1Line('VERSION', version), ok('VERSION')];

/** A game as %%SHOW gives it: a Game_Summary with the clocks left, the move count and the current position. */
export function showLines(view: GameView, lastMove: string | null): string[] {
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const clock = view.clock;
  const left = (side: 'sente' | 'gote') => (clock === null ? null : seconds(clock[side].mainMs));
  const lines = [
    'BEGIN Game_Summary',
    'Protocol_Version:1.2',
    'Protocol_Mode:Server',
    'Format:Shogi 1.0',
    'Declaration:Jishogi 1.1',
    `Game_ID:${view.id}`,
    `Name+:${view.players.sente.name}`,
    `Name-:${view.players.gote.name}`,
    'Rematch_On_Draw:NO',
    `To_Move:${view.sideToMove === 'sente' ? '+' : '-'}`,
    'BEGIN Time',
    'Time_Unit:1sec',
    ...timeLines(view.timeControl),
    'Least_Time_Per_Move:0',
    ...(left('sente') === null ? [] : [`Remaining_Time+:${left('sente')}`, `Remaining_Time-:${left('gote')}`]),
    ...(lastMove === null ? [] : [`Last_Move:${lastMove}`]),
    `Current_Turn:${view.ply}`,
    'END Time',
    'BEGIN Position',
    ...(csaPositionLines(view.sfen) ?? []),
    'END Position',
    'END Game_Summary',
  ];
  return [...lines.map((l) => x1Line('SHOW', l)), ok('SHOW')];
}

/** A monitored game's lines: `##[MONITOR2][<id>] <line>` each, then `+OK`. */
export const monitorLines = (gameId: string, lines: readonly string[]): string[] =>
  [...lines, '+OK'].map((l) => `##[MONITOR2][${gameId}] ${l}`);
