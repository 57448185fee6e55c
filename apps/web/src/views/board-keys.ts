/**
 * The board by keyboard, for the game page and the analysis board alike: the board and its
 * two stands are one tab stop (a roving tabindex: the square or hand piece under the cursor
 * is the one element of them in the tab order), the arrow keys move the cursor (focus) over
 * the squares and on to the stands' pieces, and Enter or Space presses the place it is on,
 * as a click would: pick a piece, move it, drop it. Escape and the promotion choice's keys
 * are the page's and the choice's own. Where the cursor goes is keyboard-cursor.ts; this
 * reads the page and moves the focus.
 *
 * While the board has the keyboard's focus the arrows are the cursor's, so ←/→ do not step
 * through the moves; everywhere else on the page they do (history-nav.ts skips a key already
 * handled). A square the mouse clicked has the focus too, but its user expects ←/→ to step
 * through the moves as before: they do until the keyboard takes the board (Tab, ↑ or ↓).
 */
import { type CursorFrame, clampPlace, keyAction, moveCursor, type Place } from '../shogi/keyboard-cursor.js';

export interface BoardKeysContext {
  /** the element holding the two stands (`.stand.top`, `.stand.bottom`) and the board */
  readonly wrap: HTMLElement;
  /** gote at the bottom */
  flipped(): boolean;
  /** a square pressed, as if clicked */
  onSquare(index: number): void;
  /** a hand piece of the side to move pressed, as if clicked */
  onPick(type: number): void;
}

export interface BoardKeys {
  /** Whether the focus is on the board, a stand or the promotion choice: asked before a redraw replaces them. */
  hasFocus(): boolean;
  /**
   * After a redraw: the cursor's place is the one tab stop (the square `start` while the
   * cursor has not been moved), and takes the focus again when `refocus`.
   */
  sync(refocus: boolean, start: number): void;
}

const HAND_PIECES = (stand: 'top' | 'bottom') => `.stand.${stand} .hand-piece`;

export function boardKeys(ctx: BoardKeysContext): BoardKeys {
  const { wrap } = ctx;
  // null until the user puts the cursor somewhere: it then starts where the page says
  let place: Place | null = null;

  const frame = (): CursorFrame => {
    const hand = wrap.querySelector('.hand');
    // the stands are rows above and below the board on a phone, columns beside it on a wider screen
    const stacked = hand !== null && getComputedStyle(hand).flexDirection === 'row';
    return {
      flipped: ctx.flipped(),
      layout: stacked ? 'stacked' : 'beside',
      top: wrap.querySelectorAll(HAND_PIECES('top')).length,
      bottom: wrap.querySelectorAll(HAND_PIECES('bottom')).length,
    };
  };
  const elementAt = (p: Place): HTMLElement | null =>
    'square' in p
      ? wrap.querySelector<HTMLElement>(`.board [data-index="${p.square}"]`)
      : (wrap.querySelectorAll<HTMLElement>(HAND_PIECES(p.stand))[p.slot] ?? null);
  const placeOf = (el: Element | null): Place | null => {
    const square = el?.closest<HTMLElement>('.board [data-index]');
    if (square && wrap.contains(square)) return { square: Number(square.dataset.index) };
    const piece = el?.closest<HTMLElement>('.hand-piece');
    const stand = piece?.closest('.stand.top') ? 'top' : piece?.closest('.stand.bottom') ? 'bottom' : null;
    if (!piece || !stand) return null;
    return { stand, slot: [...wrap.querySelectorAll(HAND_PIECES(stand))].indexOf(piece) };
  };
  /** The one tab stop on `p`; every other square and hand piece out of the tab order, but focusable. */
  const rove = (p: Place): HTMLElement | null => {
    for (const el of wrap.querySelectorAll<HTMLElement>('.board [data-index], .hand-piece')) el.tabIndex = -1;
    const el = elementAt(p);
    if (el) el.tabIndex = 0;
    return el;
  };

  // the board's focus came from a pointer: ←/→ stay the move list's
  let byPointer = false;
  wrap.addEventListener('pointerdown', () => {
    byPointer = true;
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Tab') byPointer = false;
  });
  // a click (or a tap) puts the cursor where it landed, so the arrows go on from there
  wrap.addEventListener('focusin', (event) => {
    const p = placeOf(event.target as Element);
    if (p) place = p;
  });
  wrap.addEventListener('keydown', (event) => {
    const target = event.target as Element;
    // the promotion choice answers its own keys
    if (target.closest('dialog')) return;
    const from = placeOf(target);
    const action = from && keyAction(event.key, event);
    if (!from || !action) return;
    if ('move' in action && byPointer && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) return;
    event.preventDefault();
    if ('move' in action) {
      byPointer = false;
      place = moveCursor(from, action.move, frame());
      rove(place)?.focus();
      return;
    }
    place = from;
    if ('square' in from) ctx.onSquare(from.square);
    else {
      // only the side to move's pieces are buttons: the other stand's are there to be read
      const type = target.closest<HTMLElement>('[data-hand]')?.dataset.hand;
      if (type !== undefined) ctx.onPick(Number(type));
    }
  });

  return {
    hasFocus: () => wrap.contains(document.activeElement),
    sync(refocus, start) {
      const p = clampPlace(place ?? { square: start }, frame());
      const el = rove(p);
      if (refocus) el?.focus();
    },
  };
}
