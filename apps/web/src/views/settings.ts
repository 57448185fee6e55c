/**
 * The settings page: how moves are written in the move list (Japanese, Western, KIF, CSA,
 * USI), how pieces are drawn, and the board's own settings (the game page's dialog, opened from here too, so every
 * setting is in one place): each takes effect at once and is remembered in this browser
 * (localStorage). The account's takeback preference is kept by the server.
 */
import { h } from '../dom.js';
import { moveNotation, NOTATION_LABELS, setMoveNotation } from '../prefs/notation.js';
import { pieceStyle, setPieceStyle } from '../session.js';
import '../styles/settings.css';
import { NOTATIONS, type Notation } from '../shogi/notation.js';
import type { PieceStyle } from '../shogi/pieces.js';
import { settingsPanel } from './settings-panel.js';
import { takebackSetting } from './takeback-setting.js';

function choice<T extends string>(
  name: string,
  legend: string,
  options: readonly (readonly [T, string])[],
  current: T,
  save: (value: T) => void,
  saved: HTMLElement,
): HTMLElement {
  return h(
    'fieldset',
    {
      class: 'setting',
      onchange: (e: Event) => {
        save((e.target as HTMLInputElement).value as T);
        saved.textContent = `Saved: ${legend.toLowerCase()} set.`;
      },
    },
    h('legend', {}, legend),
    ...options.map(([value, label]) =>
      h(
        'label',
        {},
        h('input', { type: 'radio', name, value, id: `${name}-${value}`, checked: value === current }),
        ` ${label}`,
      ),
    ),
  );
}

export function settingsPage(root: HTMLElement): () => void {
  const saved = h('p', { class: 'saved', role: 'status' });
  const board = settingsPanel();
  root.replaceChildren(
    h(
      'section',
      { class: 'settings' },
      h('h1', {}, 'Settings'),
      choice<Notation>(
        'notation',
        'Move notation',
        NOTATIONS.map((n) => [n, NOTATION_LABELS[n]] as const),
        moveNotation(),
        setMoveNotation,
        saved,
      ),
      choice<PieceStyle>(
        'pieces',
        'Pieces',
        [
          ['kanji', 'Kanji (歩 香 桂)'],
          ['latin', 'Letters (P L N), gote’s marked in blue and underlined'],
        ],
        pieceStyle(),
        setPieceStyle,
        saved,
      ),
      takebackSetting(saved),
      h(
        'p',
        {},
        h('button', { type: 'button', onclick: () => board.open() }, 'Board, pieces, sound and moves…'),
        ' themes, coordinates, animation, sounds, move confirmation and premoves',
      ),
      saved,
      board.element,
    ),
  );
  return () => {};
}
