/**
 * The game's record around the board: downloads (KIF in Shift_JIS as `.kif` and in UTF-8 as
 * `.kifu`, KI2, CSA, SFEN with the USI moves), the SFEN of the position shown with a copy button,
 * and the way to the analysis board at that position.
 */
import { toSfen } from '@shogi/rules';
import { h } from '../../dom.js';
import type { GameHistory } from '../../shogi/history.js';
import { newGame } from '../../shogi/model.js';

export interface RecordsPanel {
  readonly element: HTMLElement;
  /** the position shown: its SFEN in the field, and the analysis board's link there */
  render(sfen: string, ply: number): void;
}

const FORMATS = [
  ['kif', 'KIF', 'KIF (Shift_JIS), for Japanese programs'],
  ['kifu', 'KIFU', 'KIF in UTF-8'],
  ['ki2', 'KI2', 'KI2 (Shift_JIS): the moves as players write them, ▲５八金右'],
  ['csa', 'CSA', 'CSA, as engines and Floodgate write it'],
  ['sfen', 'SFEN', 'the start SFEN and the USI moves'],
] as const;

export function recordsPanel(gameId: string): RecordsPanel {
  const id = encodeURIComponent(gameId);
  const downloads = h(
    'p',
    { class: 'downloads' },
    'Download: ',
    ...FORMATS.flatMap(([ext, label, title], i) => [
      i > 0 ? ' · ' : '',
      h('a', { href: `/api/games/${id}.${ext}`, download: `${gameId}.${ext}`, title, 'data-format': ext }, label),
    ]),
  );
  const field = h('input', {
    id: 'sfen-field',
    readonly: true,
    class: 'sfen-field',
    'aria-label': 'SFEN of the position shown',
  });
  const status = h('span', { class: 'copy-status', role: 'status' });
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'copy-sfen',
      onclick: () => {
        field.select();
        navigator.clipboard?.writeText(field.value).then(
          () => {
            status.textContent = 'Copied';
          },
          () => {
            // without clipboard access the text stays selected for Ctrl+C
            status.textContent = 'Selected: press Ctrl+C';
          },
        );
      },
    },
    'Copy SFEN',
  );
  const analysis = h('a', { class: 'analysis-link button', href: `/analysis/${id}` }, 'Analysis board');
  // the position shown, on a free analysis board with the opening explorer beside it
  const explorer = h('a', { class: 'explorer-link button', href: '/analysis' }, 'Opening explorer');
  const element = h(
    'section',
    { class: 'records', 'aria-label': 'Record and analysis' },
    downloads,
    h('p', { class: 'sfen-line' }, field, copy, status),
    h('p', {}, analysis, ' ', explorer),
  );
  return {
    element,
    render(sfen, ply) {
      if (field.value !== sfen) status.textContent = '';
      field.value = sfen;
      analysis.setAttribute('href', `/analysis/${id}${ply > 0 ? `#${ply}` : ''}`);
      explorer.setAttribute('href', `/analysis?sfen=${encodeURIComponent(sfen.replaceAll(' ', '_'))}`);
    },
  };
}

/** The SFEN after `ply` moves of the game (replayed: the history keeps boards, not SFENs). */
export function sfenAt(history: GameHistory, initialSfen: string, ply: number): string {
  const game = newGame(initialSfen, 'default');
  for (const usi of history.moves.slice(0, ply)) if (!game.playUsi(usi).ok) break;
  return toSfen(game.position);
}
