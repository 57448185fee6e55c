/**
 * The board settings as a dialog: piece set, piece and board themes, coordinates, animation,
 * sound, move confirmation and premoves. Each change is stored and applied at once
 * (settings-store.ts), so the board behind the dialog shows it.
 */
import { h } from '../dom.js';
import {
  BOARD_THEMES,
  type BoardTheme,
  PIECE_THEMES,
  type PieceTheme,
  type Settings,
  settings,
  updateSettings,
} from './settings-store.js';

const BOARD_THEME_NAMES: Record<BoardTheme, string> = {
  kaya: 'Kaya (light wood)',
  walnut: 'Walnut (dark wood)',
  slate: 'Slate blue',
  green: 'Green felt',
};
const PIECE_THEME_NAMES: Record<PieceTheme, string> = {
  boxwood: 'Boxwood',
  ivory: 'Ivory',
  ebony: 'Ebony (light ink)',
};
type Flag = 'coordinates' | 'animation' | 'sound' | 'confirmMoves' | 'premoves';
const FLAGS: readonly [Flag, string][] = [
  ['coordinates', 'Show coordinates'],
  ['animation', 'Animate moves'],
  ['sound', 'Sounds (moves, captures, byoyomi countdown)'],
  ['confirmMoves', 'Confirm each move before it is sent'],
  ['premoves', "Premoves (a move entered on the opponent's turn)"],
];

export interface SettingsPanel {
  readonly element: HTMLDialogElement;
  open(): void;
}

export function settingsPanel(): SettingsPanel {
  const form = h('form', { method: 'dialog', class: 'settings-form' });
  const element = h(
    'dialog',
    { class: 'settings', 'aria-labelledby': 'settings-title' },
    h('h2', { id: 'settings-title' }, 'Board settings'),
    form,
  );
  const fill = (now: Settings) => {
    const radio = (value: Settings['pieceSet'], label: string) =>
      h(
        'label',
        {},
        h('input', {
          type: 'radio',
          name: 'pieceSet',
          id: `setting-pieceSet-${value}`,
          value,
          checked: now.pieceSet === value,
          onchange: () => updateSettings({ pieceSet: value }),
        }),
        ` ${label}`,
      );
    const select = <T extends string>(
      key: 'boardTheme' | 'pieceTheme',
      label: string,
      values: readonly T[],
      names: Record<T, string>,
    ) => {
      const field = h(
        'select',
        {
          id: `setting-${key}`,
          onchange: (e: Event) => updateSettings({ [key]: (e.target as HTMLSelectElement).value }),
        },
        ...values.map((v) => h('option', { value: v, selected: now[key] === v }, names[v])),
      );
      return h('p', {}, h('label', { for: `setting-${key}` }, label), ' ', field);
    };
    const flags = FLAGS.map(([key, label]) =>
      h(
        'p',
        {},
        h(
          'label',
          {},
          h('input', {
            type: 'checkbox',
            id: `setting-${key}`,
            checked: now[key],
            onchange: (e: Event) => updateSettings({ [key]: (e.target as HTMLInputElement).checked }),
          }),
          ` ${label}`,
        ),
      ),
    );
    form.replaceChildren(
      h(
        'fieldset',
        {},
        h('legend', {}, 'Pieces'),
        radio('kanji', 'Kanji'),
        ' ',
        radio('latin', 'International (letters)'),
      ),
      select('pieceTheme', 'Piece colour', PIECE_THEMES, PIECE_THEME_NAMES),
      select('boardTheme', 'Board', BOARD_THEMES, BOARD_THEME_NAMES),
      ...flags,
      h('p', {}, h('button', { class: 'primary', value: 'close' }, 'Done')),
    );
  };
  return {
    element,
    open() {
      fill(settings());
      element.showModal();
    },
  };
}
