/**
 * Stepping through the moves: the ⏮ ◀ ▶ ⏭ buttons with the place between them, and the
 * note over a past position (read-only, or the game has moved on) with its way back.
 */
import { h, s as svg } from '../../dom.js';
import { type Cursor, isLive, movesSinceLeft, type Step, stepForKey } from '../../shogi/cursor.js';
import { pastNoteText, placeText } from './wording.js';

export interface HistoryNav {
  /** the buttons and the place */
  readonly element: HTMLElement;
  /** the note over a past position */
  readonly note: HTMLElement;
  render(cursor: Cursor, shown: number, latest: number): void;
}

// ⏮ ◀ ▶ ⏭ drawn, not typed: the media-control characters are missing from many fonts
const icon = (...shapes: Element[]) =>
  svg('svg', { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true' }, ...shapes);
const bar = (x: number) => svg('rect', { x, y: 3, width: 2, height: 10 });
const arrow = (points: string) => svg('polygon', { points });

/** The drawn glyph of each step's button, for every board that steps through moves. */
export const NAV_ICONS: Readonly<Record<Step, () => Element>> = {
  first: () => icon(bar(2), arrow('14,3 14,13 5,8')),
  back: () => icon(arrow('12,3 12,13 4,8')),
  forward: () => icon(arrow('4,3 4,13 12,8')),
  last: () => icon(arrow('2,3 2,13 11,8'), bar(12)),
};

export function historyNav(show: (to: Step) => void): HistoryNav {
  const button = (to: Step, glyph: Element, label: string) =>
    h(
      'button',
      { type: 'button', class: `nav-${to}`, 'aria-label': label, title: label, onclick: () => show(to) },
      glyph,
    );
  const place = h('span', { class: 'nav-place' });
  const element = h(
    'div',
    { class: 'history-nav', role: 'group', 'aria-label': 'Step through the moves (← → Home End)' },
    button('first', NAV_ICONS.first(), 'Start position (Home)'),
    button('back', NAV_ICONS.back(), 'Previous move (←)'),
    place,
    button('forward', NAV_ICONS.forward(), 'Next move (→)'),
    button('last', NAV_ICONS.last(), 'Latest position, live (End)'),
  );
  const note = h('p', { class: 'history-note', role: 'status' });

  const render = (cursor: Cursor, shown: number, latest: number) => {
    place.textContent = placeText(shown, latest);
    const [first, back, forward, last] = element.querySelectorAll('button');
    for (const b of [first, back]) if (b) b.disabled = shown === 0;
    for (const b of [forward, last]) if (b) b.disabled = isLive(cursor);
    const news = movesSinceLeft(cursor, latest);
    note.hidden = isLive(cursor);
    note.className = news > 0 ? 'history-note moved-on' : 'history-note';
    note.replaceChildren(
      pastNoteText(news),
      h('button', { type: 'button', class: 'link', onclick: () => show('last') }, 'Back to the game'),
    );
  };
  return { element, note, render };
}

/** The keyboard's way through the moves: ← → one move, Home and End the start and the live position. */
export function historyKeys(show: (to: Step) => void): (event: KeyboardEvent) => void {
  return (event) => {
    const to = stepForKey(event.key);
    // a key the board's cursor took (board-keys.ts) is not for the move list
    if (to === null || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey)
      return;
    // keys typed in a field, or while the promotion prompt is open, are not for the board
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable], dialog')) return;
    event.preventDefault();
    show(to);
  };
}
