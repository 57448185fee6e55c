/**
 * The game page's elements, built once: the play area (title, player bars, board, history
 * navigation, banner) and the side panel (info, controls, notes, moves). Rendering refills
 * them on each change; nothing here is rebuilt.
 */
import { h } from '../../dom.js';
import type { Step } from '../../shogi/cursor.js';
import { type ControlHandlers, type Controls, controls } from './controls.js';
import { type HistoryNav, historyNav } from './history-nav.js';
import { type PromotionPrompt, promotionPrompt } from './promotion.js';

export interface GameView {
  readonly title: HTMLElement;
  readonly topBar: HTMLElement;
  readonly bottomBar: HTMLElement;
  readonly boardBox: HTMLElement;
  readonly banner: HTMLElement;
  readonly nav: HistoryNav;
  readonly info: HTMLElement;
  readonly moveList: HTMLElement;
  /** refusals, errors and hints */
  readonly note: HTMLElement;
  readonly controls: Controls;
  readonly styleToggle: HTMLElement;
  readonly promotion: PromotionPrompt;
}

export interface LayoutHandlers extends ControlHandlers {
  show(to: Step): void;
  toggleStyle(): void;
}

/** Builds the page's elements into `root`, replacing what was there. */
export function layOutGamePage(root: HTMLElement, on: LayoutHandlers): GameView {
  const view: GameView = {
    title: h('h1', { class: 'game-title' }, 'Game'),
    topBar: h('div', { class: 'player-bar top' }),
    bottomBar: h('div', { class: 'player-bar bottom' }),
    boardBox: h('div', { class: 'board-box' }),
    banner: h('div', { class: 'banner', role: 'status' }),
    nav: historyNav((to) => on.show(to)),
    info: h('p', { class: 'game-info' }),
    moveList: h('ol', { class: 'moves', 'aria-label': 'Moves' }),
    note: h('p', { class: 'note', role: 'alert' }),
    controls: controls(on),
    styleToggle: h('button', { type: 'button', class: 'link', onclick: () => on.toggleStyle() }, ''),
    promotion: promotionPrompt(),
  };
  const { title, topBar, bottomBar, boardBox, nav, banner } = view;
  root.replaceChildren(
    h(
      'section',
      { class: 'game-page' },
      h('div', { class: 'play-area' }, title, topBar, boardBox, bottomBar, nav.element, nav.note, banner),
      h(
        'aside',
        { class: 'side-panel' },
        view.info,
        view.controls.element,
        view.controls.usiForm,
        view.note,
        h('h2', {}, 'Moves'),
        view.moveList,
        h('p', {}, view.styleToggle),
      ),
      view.promotion.element,
    ),
  );
  return view;
}
