/**
 * lishogi's shapes of a game (its bot module's JSON view): the `gameFull` line that opens a
 * game stream, the `gameState` lines after it, `chatLine`s, and statuses and winners by
 * lishogi's names. Pure: a game's facts and its clocks at an instant in, plain JSON out.
 */
import { END_REASONS, type EndReason } from '@shogi/game';
import type { ClockView, Side, TimeControl } from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import type { ChatLine, ChatRoom } from '../domain/game-chat.js';
import { type LishogiPlayer, perfOf, type Speed, clockOf as settingsOf, speedOf, VARIANT } from './shapes.js';

export const LISHOGI_STATUSES = [
  'started',
  'aborted',
  'mate',
  'resign',
  'stalemate',
  'outoftime',
  'draw',
  'impasse27',
  'perpetualCheck',
  'repetition',
  'unknownFinish',
] as const;
export type LishogiStatus = (typeof LISHOGI_STATUSES)[number];

/** Our GameEnded reasons by lishogi's status names. */
const STATUS_OF_REASON: Readonly<Record<EndReason, LishogiStatus>> = {
  checkmate: 'mate',
  resignation: 'resign',
  // lishogi's `timeout` is a claim against a player who left; a flag is `outoftime`
  timeout: 'outoftime',
  sennichite: 'repetition',
  perpetual_check: 'perpetualCheck',
  stalemate: 'stalemate',
  impasse: 'impasse27',
  abort: 'aborted',
  // the CSA protocol's endings: lishogi has no illegal-move loss, and a move limit is a draw
  illegal_move: 'unknownFinish',
  max_moves: 'draw',
  draw: 'draw',
};

const isEndReason = (s: string): s is EndReason => (END_REASONS as readonly string[]).includes(s);

/**
 * A game's lishogi status: `started` from its creation (lishogi starts a challenge's game at
 * once, so clients never see `created`), then its ending's name; an ending this version does
 * not know is lishogi's `unknownFinish`.
 */
export function statusOf(game: Pick<GameFacts, 'status' | 'result'>): LishogiStatus {
  if (game.status === 'ongoing' || game.result === null) return 'started';
  return isEndReason(game.result.reason) ? STATUS_OF_REASON[game.result.reason] : 'unknownFinish';
}

export interface LishogiClock {
  readonly initial: number;
  readonly increment: number;
  readonly byoyomi: number;
  readonly periods: number;
}

/** What lishogi sends as a side's time when the game has no clock (its Int.MaxValue). */
export const NO_CLOCK_MS = 2_147_483_647;

/**
 * The clock's settings in ms (a challenge's, shapes.ts, in seconds); null for correspondence
 * and unlimited games, as lishogi gives them.
 */
export function clockOf(tc: TimeControl): LishogiClock | null {
  const settings = settingsOf(tc);
  if (settings === null) return null;
  return {
    initial: settings.limit * 1000,
    increment: settings.increment * 1000,
    byoyomi: settings.byoyomi * 1000,
    periods: settings.periods,
  };
}

/**
 * A side's time as lishogi sends it: the main time left, then (in byoyomi, or in a
 * correspondence game's one period a move) the time left in the current period.
 */
export function sideTimeMs(side: { readonly mainMs: number; readonly periodMs: number }): number {
  return side.mainMs > 0 ? side.mainMs : side.periodMs;
}

/** What a gameState is made of: a snapshot of the game (domain/game-snapshot.ts) has it all. */
export interface GameFacts {
  readonly id: string;
  readonly initialSfen: string;
  readonly moves: readonly string[];
  readonly status: 'ongoing' | 'ended';
  readonly result: { readonly winner: Side | null; readonly reason: string } | null;
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  /** the side whose takeback proposal awaits its answer */
  readonly takeback: Side | null;
}

export interface LishogiGameState {
  readonly type: 'gameState';
  /** accepted moves in USI, space-separated */
  readonly moves: string;
  /** sente's time (lishogi's b, for sente's SFEN letter), ms */
  readonly btime: number;
  readonly wtime: number;
  readonly binc: number;
  readonly winc: number;
  readonly byo: number;
  /** draw offers: this server has none */
  readonly sdraw: boolean;
  readonly gdraw: boolean;
  /** a takeback proposal of sente's (gote's) awaits its answer, as lichess's btakeback/wtakeback */
  readonly stakeback: boolean;
  readonly gtakeback: boolean;
  readonly status: LishogiStatus;
  readonly winner?: Side;
}

/**
 * The gameState of a game whose clocks are `clock` at the instant it is sent (lishogi sends
 * the time left at that moment: the running side charged until then); `clock` null: no clock.
 */
export function gameStateOf(game: GameFacts, clock: ClockView | null): LishogiGameState {
  const settings = clockOf(game.timeControl);
  const increment = settings?.increment ?? 0;
  const winner = game.result?.winner ?? null;
  return {
    type: 'gameState',
    moves: game.moves.join(' '),
    btime: clock === null ? NO_CLOCK_MS : sideTimeMs(clock.sente),
    wtime: clock === null ? NO_CLOCK_MS : sideTimeMs(clock.gote),
    binc: increment,
    winc: increment,
    byo: settings?.byoyomi ?? 0,
    sdraw: false,
    gdraw: false,
    stakeback: game.takeback === 'sente',
    gtakeback: game.takeback === 'gote',
    status: statusOf(game),
    ...(winner === null ? {} : { winner }),
  };
}

/** board, side to move and hands: the move number does not change the position */
const positionOf = (sfen: string): string => sfen.split(' ').slice(0, 3).join(' ');
const START_POSITION = positionOf(START_SFEN);

/** `startpos` for the standard start, as lishogi says it, else the SFEN. */
export const initialSfenOf = (sfen: string): string => (positionOf(sfen) === START_POSITION ? 'startpos' : sfen);

export interface LishogiGameFull {
  readonly type: 'gameFull';
  readonly id: string;
  readonly variant: typeof VARIANT;
  readonly clock: LishogiClock | null;
  readonly speed: Speed;
  readonly perf: { readonly name: string };
  readonly rated: boolean;
  /** ms since the epoch */
  readonly createdAt: number;
  readonly sente: LishogiPlayer;
  readonly gote: LishogiPlayer;
  /** lishogi's older names of sente and gote, which clients written for it still read */
  readonly white: LishogiPlayer;
  readonly black: LishogiPlayer;
  readonly initialSfen: string;
  /** lishogi's older name of initialSfen */
  readonly initialFen: string;
  readonly state: LishogiGameState;
}

export function gameFullOf(
  game: GameFacts,
  createdAt: number,
  players: { readonly sente: LishogiPlayer; readonly gote: LishogiPlayer },
  clock: ClockView | null,
): LishogiGameFull {
  const initialSfen = initialSfenOf(game.initialSfen);
  return {
    type: 'gameFull',
    id: game.id,
    variant: VARIANT,
    clock: clockOf(game.timeControl),
    speed: speedOf(game.timeControl),
    perf: perfOf(game.timeControl),
    rated: game.rated,
    createdAt,
    sente: players.sente,
    gote: players.gote,
    white: players.sente,
    black: players.gote,
    initialSfen,
    initialFen: initialSfen,
    state: gameStateOf(game, clock),
  };
}

export interface LishogiChatLine {
  readonly type: 'chatLine';
  readonly room: ChatRoom;
  readonly username: string;
  readonly text: string;
}

export const chatLineOf = (line: ChatLine): LishogiChatLine => ({
  type: 'chatLine',
  room: line.room,
  username: line.username,
  text: line.text,
});
