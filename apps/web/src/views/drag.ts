/**
 * Following a press on a piece that may become a drag, with pointer events so a mouse, a pen
 * and a finger all work: once the pointer has moved a few pixels a ghost of the piece follows
 * it (a finger hides the piece it drags), and on release the caller learns what lies under
 * the pointer. The page listens on the document, not on the pressed element: the views
 * redraw on the press (the selection shows), which replaces that element.
 */
import { h } from '../dom.js';

/** Movement (px) below which a press stays a click: a hand trembles. */
const DRAG_THRESHOLD = 6;

export interface DragEnd {
  /** the element under the pointer on release (the ghost never is) */
  readonly target: Element | null;
  /** whether the pointer moved far enough to count as a drag */
  readonly dragged: boolean;
}

export function followDrag(start: PointerEvent, ghostContent: Node | null, done: (end: DragEnd) => void): void {
  const pointer = start.pointerId;
  let ghost: HTMLElement | null = null;
  let dragged = false;
  const place = (e: PointerEvent) => {
    if (ghost) ghost.style.transform = `translate(${e.clientX}px, ${e.clientY}px) translate(-50%, -50%)`;
  };
  const move = (e: PointerEvent) => {
    if (e.pointerId !== pointer) return;
    if (!dragged && Math.hypot(e.clientX - start.clientX, e.clientY - start.clientY) >= DRAG_THRESHOLD) {
      dragged = true;
      if (ghostContent) {
        ghost = h('div', { class: 'drag-ghost', 'aria-hidden': 'true' }, ghostContent);
        // the ghost is the size of the piece pressed (a square's, or a stand's)
        const box = (start.target as Element | null)?.closest('[data-index], [data-hand]')?.getBoundingClientRect();
        if (box) {
          ghost.style.width = `${box.width}px`;
          ghost.style.height = `${box.height}px`;
        }
        document.body.append(ghost);
      }
    }
    place(e);
  };
  const stop = () => {
    document.removeEventListener('pointermove', move);
    document.removeEventListener('pointerup', up);
    document.removeEventListener('pointercancel', cancel);
    ghost?.remove();
  };
  const up = (e: PointerEvent) => {
    if (e.pointerId !== pointer) return;
    stop();
    done({ target: document.elementFromPoint(e.clientX, e.clientY), dragged });
  };
  // the browser took the gesture (a scroll, a second finger): nothing is dropped
  const cancel = (e: PointerEvent) => {
    if (e.pointerId === pointer) stop();
  };
  document.addEventListener('pointermove', move);
  document.addEventListener('pointerup', up);
  document.addEventListener('pointercancel', cancel);
}
