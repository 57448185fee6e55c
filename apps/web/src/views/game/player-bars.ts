/**
 * The bars above and below the board (each side's mark, name, "to move" badge and clock) and
 * the stands beside it with each side's hand. The player's own hand takes picks when the board
 * takes a move from it (their turn, or a premove); the other hand is only shown.
 */
import { h } from '../../dom.js';
import type { BoardState } from '../../shogi/model.js';
import type { PieceStyle } from '../../shogi/pieces.js';
import { handElement } from '../board.js';
import { titledName } from '../bot-badge.js';
import { clockElement } from './clocks.js';
import { type GamePageState, latestGame, type Side, sideOf } from './state.js';

export interface BarOptions {
  readonly style: PieceStyle;
  /** gote at the bottom */
  readonly flipped: boolean;
  /** this browser's side, if it plays */
  readonly side: Side | null;
  /** the board follows the game (not a past position) */
  readonly live: boolean;
  /** the player's hand takes picks */
  readonly handInput: boolean;
  /** the hand piece picked, shown selected */
  readonly dropType: number | null;
  readonly onPick: (type: number) => void;
}

/** `toMove`: the side to move in the position shown (null: nobody, the game is over and shown live). */
function playerBar(state: GamePageState, side: Side, toMove: Side | null): (Node | string)[] {
  const { snap, clock } = state;
  if (!snap || !latestGame(state)) return [];
  const player = snap.players[side];
  const parts: (Node | string)[] = [
    h('span', { class: 'mark', 'aria-hidden': 'true' }, side === 'sente' ? '☗' : '☖'),
    h('a', { href: `/players/${player.id}`, 'data-link': true, class: 'name' }, ...titledName(player)),
    toMove === side ? h('span', { class: 'turn' }, 'to move') : '',
  ];
  if (clock) parts.push(clockElement(clock, side, snap.status === 'ongoing'));
  return parts;
}

export function renderPlayerBars(
  parts: {
    readonly top: HTMLElement;
    readonly bottom: HTMLElement;
    readonly topStand: HTMLElement;
    readonly bottomStand: HTMLElement;
  },
  state: GamePageState,
  board: BoardState,
  o: BarOptions,
): void {
  const game = latestGame(state);
  if (!state.snap || !game) return;
  const hand = (s: Side) =>
    handElement(s, board.hands[s === 'sente' ? 0 : 1], {
      style: o.style,
      flipped: o.flipped,
      selectedType: o.dropType,
      ...(s === o.side && o.handInput ? { onPick: o.onPick } : {}),
    });
  const [topSide, bottomSide]: [Side, Side] = o.flipped ? ['sente', 'gote'] : ['gote', 'sente'];
  // stepped back, the badge follows the board shown (the clocks stay the game's own)
  const liveToMove = state.snap.status === 'ongoing' ? sideOf(game.position.side) : null;
  const toMove = o.live ? liveToMove : board.sideToMove;
  parts.top.replaceChildren(...playerBar(state, topSide, toMove));
  parts.bottom.replaceChildren(...playerBar(state, bottomSide, toMove));
  parts.topStand.replaceChildren(hand(topSide));
  parts.bottomStand.replaceChildren(hand(bottomSide));
}
