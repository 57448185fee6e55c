/**
 * The move animation: once the board is redrawn with a move made, the moved piece slides
 * from where it stood (or from its stand, for a drop) to its square. Web Animations, so
 * nothing is written into a style attribute and the page's CSP holds.
 */
import type { Squares } from './board.js';

const DURATION_MS = 180;

const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

export function animateArrival(boardBox: HTMLElement, move: Squares, stand: Element | null): void {
  if (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const cell = boardBox.querySelector(`[data-index="${move.to}"]`);
  const piece = cell?.querySelector<HTMLElement>('.piece');
  const origin = move.from === null ? stand : boardBox.querySelector(`[data-index="${move.from}"]`);
  if (!cell || !piece || !origin || typeof piece.animate !== 'function') return;
  const a = centre(origin.getBoundingClientRect());
  const b = centre(cell.getBoundingClientRect());
  piece.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` }, { transform: 'translate(0, 0)' }], {
    duration: DURATION_MS,
    easing: 'ease-out',
  });
}
