/**
 * Moving on the board: click a piece then a square, drag a piece to a square (board or hand,
 * with a mouse, a pen or a finger), and the promotion prompt when both forms are legal. The
 * rules of what may be picked are in selection.ts; this wires them to pointer events.
 */
import type { Move } from '@shogi/rules';
import { promotionChoice } from '../../shogi/model.js';
import { followDrag } from '../drag.js';
import type { PromotionPrompt } from './promotion.js';
import { isTarget, pickFromHand, selectedDropType, selectedSquare, selectionFrom } from './selection.js';
import { canMove, type GamePageState, latestGame, moveInFlight } from './state.js';

export interface BoardInputContext {
  readonly state: GamePageState;
  readonly boardBox: HTMLElement;
  /** the player bars, where the hands are */
  readonly bars: readonly HTMLElement[];
  readonly promotion: PromotionPrompt;
  render(): void;
  submit(move: Move): Promise<void>;
}

export interface BoardInput {
  /** a board square clicked (or pressed with Enter or Space) */
  onSquare(index: number): void;
  /** a hand piece clicked with the keyboard (a pointer's was handled on the press) */
  onPick(type: number): void;
}

/** Listens on the board and the bars; returns the handlers each redraw gives the squares and hands. */
export function boardInput(io: BoardInputContext): BoardInput {
  listenOnBoard(io);
  listenOnHands(io);
  return { onSquare: (index) => onSquare(io, index), onPick: (type) => onPick(io, type) };
}

/** Finishes the selected move on `target`, asking about promotion when both forms are legal. */
async function finish(io: BoardInputContext, target: number): Promise<void> {
  const { state } = io;
  if (!state.selection) return;
  const moves = state.selection.targets.byTarget.get(target);
  if (!moves) return;
  const { plain, promote } = promotionChoice(moves);
  // a prompt only when both are legal; otherwise the one legal form is played
  const chosen = plain !== null && promote !== null ? await io.promotion.choose(plain, promote) : (plain ?? promote);
  if (chosen === null) {
    state.selection = null;
    io.render();
    return;
  }
  await io.submit(chosen);
}

function onSquare(io: BoardInputContext, index: number): void {
  const { state } = io;
  const game = latestGame(state);
  if (!game || !canMove(state) || moveInFlight(state)) return;
  if (isTarget(state.selection, index)) {
    void finish(io, index);
    return;
  }
  state.selection = selectionFrom(game, { square: index });
  io.render();
}

function onPick(io: BoardInputContext, type: number): void {
  const game = latestGame(io.state);
  if (!game || !canMove(io.state)) return;
  io.state.selection = pickFromHand(game, io.state.selection, type);
  io.render();
}

/** The board square an element is (or is in), or null. */
function squareAt(io: BoardInputContext, el: Element | null): number | null {
  const cell = el?.closest<HTMLElement>('[data-index]');
  return cell && io.boardBox.contains(cell) ? Number(cell.dataset.index) : null;
}
const ghostOf = (el: Element): Node | null => el.querySelector('.piece')?.cloneNode(true) ?? null;

// drag: press on a piece, release on a target square
function listenOnBoard(io: BoardInputContext): void {
  const { state, boardBox } = io;
  boardBox.addEventListener('pointerdown', (event) => {
    const cell = (event.target as Element).closest<HTMLElement>('[data-index]');
    const game = latestGame(state);
    if (event.button !== 0 || !cell || !game || !canMove(state) || moveInFlight(state)) return;
    const from = Number(cell.dataset.index);
    if (isTarget(state.selection, from)) return;
    const selection = selectionFrom(game, { square: from });
    if (!selection) return;
    const ghost = ghostOf(cell);
    state.selection = selection;
    io.render();
    followDrag(event, ghost, ({ target }) => {
      const to = squareAt(io, target);
      if (to !== null && to !== from && isTarget(state.selection, to)) void finish(io, to);
    });
  });
  // a click after a drag that stayed on its square keeps the selection (click-click moves)
  boardBox.addEventListener(
    'click',
    (event) => {
      const cell = (event.target as Element).closest<HTMLElement>('[data-index]');
      if (!cell) return;
      if (selectedSquare(state.selection) === Number(cell.dataset.index)) event.stopPropagation();
    },
    true,
  );
}

// drag from the hand: press on a piece in hand, release on a target square. A press released
// in place is a click (it picks the piece, or unpicks the picked one), so click-then-square
// works as before; the click event itself is left to the keyboard (Enter, Space)
function listenOnHands(io: BoardInputContext): void {
  const { state } = io;
  const onHandPress = (event: PointerEvent) => {
    const button = (event.target as Element).closest<HTMLElement>('[data-hand]');
    const game = latestGame(state);
    if (event.button !== 0 || !button || !game || !canMove(state) || moveInFlight(state)) return;
    const type = Number(button.dataset.hand);
    const wasPicked = selectedDropType(state.selection) === type;
    const selection = selectionFrom(game, { dropType: type });
    if (!selection) return;
    const ghost = ghostOf(button);
    state.selection = selection;
    io.render();
    followDrag(event, ghost, ({ target, dragged }) => {
      const to = squareAt(io, target);
      if (to !== null && isTarget(state.selection, to)) void finish(io, to);
      else if (!dragged && wasPicked) {
        state.selection = null;
        io.render();
      }
    });
  };
  for (const bar of io.bars) {
    bar.addEventListener('pointerdown', onHandPress);
    // a pointer's click on a hand piece was handled on the press; a keyboard's (detail 0) was not
    bar.addEventListener(
      'click',
      (event) => {
        if (event.detail > 0 && (event.target as Element).closest('[data-hand]')) event.stopPropagation();
      },
      true,
    );
  }
}
