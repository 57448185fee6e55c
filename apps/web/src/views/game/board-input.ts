/**
 * Moving on the board: click a piece then a square, drag a piece to a square (board or hand,
 * with a mouse, a pen or a finger), the promotion choice drawn on the board when both forms
 * are legal, premoves on the opponent's turn, and the confirmation step when the setting asks
 * for one. What may be picked is in selection.ts; this wires it to pointer events.
 */
import type { Move, PositionHistory } from '@shogi/rules';
import { promotionChoice } from '../../shogi/model.js';
import { followDrag } from '../drag.js';
import { settings } from '../settings-store.js';
import { asIfOtherToMove } from './pending-moves.js';
import { isTarget, noDropReason, pickFromHand, selectedDropType, selectedSquare, selectionFrom } from './selection.js';
import { canMove, canPremove, type GamePageState, latestGame, moveInFlight } from './state.js';

export interface BoardInputContext {
  readonly state: GamePageState;
  readonly boardBox: HTMLElement;
  /** the stands, where the hands are */
  readonly stands: readonly HTMLElement[];
  render(): void;
  say(text: string): void;
  submit(move: Move): Promise<void>;
}

export interface BoardInput {
  /** a board square clicked (or pressed with Enter or Space) */
  onSquare(index: number): void;
  /** a hand piece clicked with the keyboard (a pointer's was handled on the press) */
  onPick(type: number): void;
  /** the promotion choice answered: a form, or null to take the move back */
  onChoose(kind: 'promote' | 'plain' | null): void;
  /** Escape: whatever is half-made or waiting (choice, confirmation, premove, selection) is dropped */
  cancel(): void;
}

/** Listens on the board and the stands; returns the handlers each redraw gives the squares and hands. */
export function boardInput(io: BoardInputContext): BoardInput {
  listenOnBoard(io);
  listenOnHands(io);
  return {
    onSquare: (index) => onSquare(io, index),
    onPick: (type) => onPick(io, type),
    onChoose: (kind) => onChoose(io, kind),
    cancel: () => cancel(io),
  };
}

/** The position a piece is picked in: the game's on the player's turn, or for a premove. */
function inputGame(state: GamePageState): { game: PositionHistory; premove: boolean } | null {
  const game = latestGame(state);
  if (!game || moveInFlight(state) || state.confirming !== null) return null;
  if (canMove(state)) return { game, premove: false };
  if (canPremove(state) && settings().premoves) {
    const other = asIfOtherToMove(game);
    return other ? { game: other, premove: true } : null;
  }
  return null;
}

/** Finishes the selected move on `target`; both forms legal, the choice shows on the board. */
function finish(io: BoardInputContext, target: number): void {
  const { state } = io;
  const selection = state.selection;
  if (!selection) return;
  const moves = selection.targets.byTarget.get(target);
  if (!moves) return;
  const premove = selection.premove === true;
  const { plain, promote } = promotionChoice(moves);
  if (plain !== null && promote !== null) {
    const from = selectedSquare(selection);
    const piece = from === null ? null : pieceAt(state, from);
    state.choice = { to: target, plain, promote, type: piece?.type ?? 1, gote: piece?.gote ?? false, premove };
    state.selection = null;
    io.render();
    return;
  }
  const chosen = plain ?? promote;
  if (chosen !== null) commit(io, chosen, premove);
}

function pieceAt(state: GamePageState, index: number): { type: number; gote: boolean } | null {
  const history = state.history;
  return history ? (history.boardAt(history.length).squares[index] ?? null) : null;
}

/** A whole move: kept as a premove, held for confirmation, or sent. */
function commit(io: BoardInputContext, move: Move, premove: boolean): void {
  const { state } = io;
  state.selection = null;
  if (premove) state.premove = move;
  else if (settings().confirmMoves) state.confirming = move;
  else {
    void io.submit(move);
    return;
  }
  io.render();
}

function onChoose(io: BoardInputContext, kind: 'promote' | 'plain' | null): void {
  const choice = io.state.choice;
  io.state.choice = null;
  if (!choice || kind === null) {
    io.render();
    return;
  }
  commit(io, kind === 'promote' ? choice.promote : choice.plain, choice.premove);
}

function cancel(io: BoardInputContext): void {
  const { state } = io;
  if (!state.choice && !state.confirming && !state.premove && !state.selection) return;
  state.choice = null;
  state.confirming = null;
  state.premove = null;
  state.selection = null;
  io.render();
}

function onSquare(io: BoardInputContext, index: number): void {
  const { state } = io;
  if (state.choice) {
    onChoose(io, null);
    return;
  }
  const input = inputGame(state);
  if (!input) return;
  if (isTarget(state.selection, index)) {
    finish(io, index);
    return;
  }
  // a click off the premove's squares takes it back
  if (state.premove !== null && !state.selection) {
    state.premove = null;
    io.render();
    return;
  }
  state.selection = selectionFrom(input.game, { square: index }, input.premove);
  io.render();
}

function onPick(io: BoardInputContext, type: number): void {
  const { state } = io;
  const input = inputGame(state);
  if (!input) return;
  const wasPicked = selectedDropType(state.selection) === type;
  state.selection = pickFromHand(input.game, state.selection, type, input.premove);
  if (!state.selection && !wasPicked) io.say(noDropReason(input.game, type));
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
    const input = inputGame(state);
    if (event.button !== 0 || !cell || !input || state.choice) return;
    const from = Number(cell.dataset.index);
    if (isTarget(state.selection, from)) return;
    const selection = selectionFrom(input.game, { square: from }, input.premove);
    if (!selection) return;
    const ghost = ghostOf(cell);
    state.selection = selection;
    io.render();
    followDrag(event, ghost, ({ target, dragged }) => {
      const to = squareAt(io, target);
      if (to !== null && to !== from && isTarget(state.selection, to)) {
        state.dragged = dragged;
        finish(io, to);
      }
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
    if (event.button !== 0 || !button || state.choice) return;
    const input = inputGame(state);
    if (!input) return;
    const type = Number(button.dataset.hand);
    const wasPicked = selectedDropType(state.selection) === type;
    const selection = selectionFrom(input.game, { dropType: type }, input.premove);
    if (!selection) {
      // nothing to drop: say why, and let go of what was picked before
      state.selection = null;
      io.say(noDropReason(input.game, type));
      io.render();
      return;
    }
    const ghost = ghostOf(button);
    state.selection = selection;
    io.render();
    followDrag(event, ghost, ({ target, dragged }) => {
      const to = squareAt(io, target);
      if (to !== null && isTarget(state.selection, to)) {
        state.dragged = dragged;
        finish(io, to);
      } else if (!dragged && wasPicked) {
        state.selection = null;
        io.render();
      }
    });
  };
  for (const stand of io.stands) {
    stand.addEventListener('pointerdown', onHandPress);
    // a pointer's click on a hand piece was handled on the press; a keyboard's (detail 0) was not
    stand.addEventListener(
      'click',
      (event) => {
        if (event.detail > 0 && (event.target as Element).closest('[data-hand]')) event.stopPropagation();
      },
      true,
    );
  }
}
