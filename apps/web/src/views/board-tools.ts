/**
 * The buttons under a board: flip it (anyone, player or spectator), sound on or off, and the
 * settings dialog. Shared by the game page and the analysis board.
 */
import { h, s as svg } from '../dom.js';
import { settingsPanel } from './settings-panel.js';
import { settings, updateSettings } from './settings-store.js';

export interface BoardTools {
  readonly element: HTMLElement;
  /** redraws the buttons' states (flipped, sound) */
  render(flipped: boolean): void;
}

const icon = (...shapes: Element[]) =>
  svg('svg', { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true' }, ...shapes);

// a speaker, with waves when on and a cross when muted
const speaker = (on: boolean) =>
  icon(
    svg('path', { d: 'M1 5h3l4-4v14l-4-4H1z' }),
    on
      ? svg('path', { d: 'M10 5q2 3 0 6M12 3q4 5 0 10', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5 })
      : svg('path', { d: 'M10 5l5 6M15 5l-5 6', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5 }),
  );

export function boardTools(flip: () => void): BoardTools {
  const panel = settingsPanel();
  const flipButton = h(
    'button',
    { type: 'button', class: 'flip', title: 'Flip the board (f)', 'aria-label': 'Flip the board', onclick: flip },
    icon(svg('path', { d: 'M4 1v10H1l4 4 4-4H6V1zM12 15V5h3l-4-4-4 4h3v10z' })),
    ' Flip',
  );
  const sound = h('button', {
    type: 'button',
    class: 'sound-toggle',
    onclick: () => {
      updateSettings({ sound: !settings().sound });
      render(flipButton.getAttribute('aria-pressed') === 'true');
    },
  });
  const open = h('button', { type: 'button', class: 'open-settings', onclick: () => panel.open() }, '⚙ Settings');
  const element = h(
    'div',
    { class: 'board-tools', role: 'group', 'aria-label': 'Board' },
    flipButton,
    sound,
    open,
    panel.element,
  );
  const render = (flipped: boolean) => {
    flipButton.setAttribute('aria-pressed', String(flipped));
    const on = settings().sound;
    // a toggle's name stays put and aria-pressed alone says the state: a name that changed too
    // ("Sound off", not pressed) would read as the opposite of what it means
    sound.setAttribute('aria-pressed', String(on));
    sound.title = on ? 'Sound on: click to mute' : 'Sound off: click to turn on';
    sound.replaceChildren(speaker(on), ' Sound');
  };
  render(false);
  return { element, render };
}
