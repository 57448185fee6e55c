/**
 * What the game page knows, in one object its modules share: the game as the watch socket
 * told it, the position shown, the half-made move, the move in flight. No DOM, no I/O: the
 * questions asked of it here (whose seat, whose turn, which controls) run in unit tests.
 */
import type { GameSnapshot } from '@shogi/protocol';
import type { Move, PositionHistory } from '@shogi/rules';
import type { Identity } from '../../session.js';
import type { ClockState } from '../../shogi/clock.js';
import { type Cursor, isLive, LIVE } from '../../shogi/cursor.js';
import type { GameHistory } from '../../shogi/history.js';
import type { Targets } from '../../shogi/model.js';

export type Side = 'sente' | 'gote';

/** A half-made move: the piece picked (on the board or in hand) and where it may go. */
export interface Selection {
  readonly source: { square: number } | { dropType: number };
  readonly targets: Targets;
  /** picked on the opponent's turn: the move becomes a premove */
  readonly premove?: boolean;
}

/** A move to one square where both forms are legal: the choice shows on the board. */
export interface PromotionChoice {
  readonly to: number;
  readonly plain: Move;
  readonly promote: Move;
  /** the piece's unpromoted type, and its owner, for drawing the two choices */
  readonly type: number;
  readonly gote: boolean;
  readonly premove: boolean;
}

export interface GamePageState {
  snap: GameSnapshot | null;
  /** every position of the game, replayed from its moves; its `game` is the latest, the one moved from */
  history: GameHistory | null;
  /** which of those positions the board shows: the latest (live) unless the user stepped back */
  cursor: Cursor;
  clock: ClockState | null;
  spectators: number;
  connected: boolean;
  selection: Selection | null;
  /** the seq of a submitted move whose verdict has not arrived yet */
  pendingSeq: number | null;
  /** verdicts by submission seq: the watch socket may bring one before the 202 that names it */
  readonly verdicts: Map<number, string | null>;
  /** a move's HTTP request is under way */
  sending: boolean;
  /** the note under the controls: a refusal, an error, a hint */
  message: string;
  botIds: ReadonlySet<string>;
  /** the viewer turned the board round (a player's own side is at the bottom otherwise) */
  flipped: boolean;
  /** a move entered on the opponent's turn, played once it is legal */
  premove: Move | null;
  /** a move made with confirmation on, waiting for Confirm */
  confirming: Move | null;
  /** the promotion choice shown on the board */
  choice: PromotionChoice | null;
  /** the last move was dragged into place: it is not animated */
  dragged: boolean;
  readonly me: Pick<Identity, 'id' | 'token'> | null;
}

export function newGamePageState(me: Pick<Identity, 'id' | 'token'> | null): GamePageState {
  return {
    snap: null,
    history: null,
    cursor: LIVE,
    clock: null,
    spectators: 0,
    connected: false,
    selection: null,
    pendingSeq: null,
    verdicts: new Map(),
    sending: false,
    message: '',
    botIds: new Set(),
    flipped: false,
    premove: null,
    confirming: null,
    choice: null,
    dragged: false,
    me,
  };
}

/** The side of a rules colour (0 sente, 1 gote). */
export const sideOf = (color: number): Side => (color === 0 ? 'sente' : 'gote');

/** The latest position's game, the one moves are made from. */
export const latestGame = (s: GamePageState): PositionHistory | null => s.history?.game ?? null;

export function mySide(s: GamePageState): Side | null {
  if (!s.snap || !s.me) return null;
  if (s.snap.players.sente.id === s.me.id) return 'sente';
  if (s.snap.players.gote.id === s.me.id) return 'gote';
  return null;
}

export function myTurn(s: GamePageState): boolean {
  const game = latestGame(s);
  return game !== null && s.snap?.status === 'ongoing' && mySide(s) === sideOf(game.position.side);
}

/** The board takes moves only at the latest position: an older one is for looking at. */
export const canMove = (s: GamePageState): boolean => myTurn(s) && isLive(s.cursor);

/** Gote at the bottom: a gote player's view, unless turned round (and a spectator's, turned). */
export const boardFlipped = (s: GamePageState): boolean => (mySide(s) === 'gote') !== s.flipped;

/** A player may enter a premove: the game is on, it is the opponent's turn, the board shows the live position. */
export const canPremove = (s: GamePageState): boolean =>
  mySide(s) !== null && s.snap?.status === 'ongoing' && !myTurn(s) && isLive(s.cursor);

/** A move is on its way or awaits its verdict: no other is started meanwhile. */
export const moveInFlight = (s: GamePageState): boolean => s.sending || s.pendingSeq !== null;

/** The opponent's id when the opponent is a bot (and this browser plays the game). */
export function opponentBot(s: GamePageState): string | null {
  const side = mySide(s);
  if (!s.snap || !side) return null;
  const other = side === 'sente' ? s.snap.players.gote.id : s.snap.players.sente.id;
  return s.botIds.has(other) ? other : null;
}

/** Which of the game's controls show, and whether the USI field takes input. */
export interface ControlsShown {
  readonly resign: boolean;
  readonly abort: boolean;
  readonly impasse: boolean;
  readonly rematch: boolean;
  readonly playAgain: boolean;
  readonly usiForm: boolean;
  readonly usiEnabled: boolean;
  /** the Takeback button: a player with a move of theirs to take back, no proposal pending, a person opposite */
  readonly takeback: boolean;
  /** whose takeback proposal is pending, as this player sees it: accept or decline theirs, withdraw one's own */
  readonly takebackPending: 'mine' | 'theirs' | null;
}

export function controlsShown(s: GamePageState): ControlsShown {
  const side = mySide(s);
  const ply = s.snap?.ply ?? 0;
  const playing = side !== null && s.snap?.status === 'ongoing';
  const ended = s.snap?.status === 'ended';
  return {
    resign: playing,
    // a tournament game is never aborted: a player who does not move loses on time
    abort: playing && ply < 2 && s.snap?.tournamentId === undefined,
    impasse: myTurn(s) && ply >= 2,
    rematch: ended && side !== null && opponentBot(s) === null,
    playAgain: ended && opponentBot(s) !== null,
    usiForm: playing,
    usiEnabled: canMove(s) && !moveInFlight(s),
    takeback: playing && opponentBot(s) === null && (s.snap?.takeback ?? null) === null && ply >= (myTurn(s) ? 2 : 1),
    takebackPending:
      !playing || (s.snap?.takeback ?? null) === null ? null : s.snap?.takeback === side ? 'mine' : 'theirs',
  };
}
