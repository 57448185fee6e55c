/**
 * The clocks in the player bars. The running one counts down between events on a timer that
 * rewrites its text alone: the board is not redrawn every tick.
 */
import { h } from '../../dom.js';
import { type ClockState, clockFace } from '../../shogi/clock.js';
import type { GamePageState, Side } from './state.js';
import { clockLabel, periodsText } from './wording.js';

/** How often the running clock's text is rewritten (ms). */
export const TICK_MS = 250;

/** One side's clock; `ongoing`: the game is still on, so the side whose time runs counts down. */
export function clockElement(clock: ClockState, side: Side, ongoing: boolean): HTMLElement {
  const running = clock.running === side && ongoing;
  const face = clockFace(clock[side], running ? Date.now() - clock.since : 0, clock.periodLength);
  return h(
    'span',
    {
      class: `clock${running ? ' running' : ''}${face.low ? ' low' : ''}`,
      'data-side': side,
      'aria-label': clockLabel(side, face),
    },
    h('span', { class: 'time' }, face.text),
    h('span', { class: 'periods', title: 'byoyomi periods' }, periodsText(face)),
  );
}

/** Brings the running clock's time and periods up to now, inside `root`. */
export function tickRunningClock(root: HTMLElement, state: GamePageState): void {
  const clock = state.clock;
  if (!clock || clock.running === null || state.snap?.status !== 'ongoing') return;
  const side = clock.running;
  const face = clockFace(clock[side], Date.now() - clock.since, clock.periodLength);
  const el = root.querySelector<HTMLElement>(`.clock[data-side="${side}"]`);
  const time = el?.querySelector('.time');
  const periods = el?.querySelector('.periods');
  if (time) time.textContent = face.text;
  if (periods) periods.textContent = periodsText(face);
}
