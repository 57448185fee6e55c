/**
 * The game page's elements, built once: the play area (title, player bars, the board between
 * the two stands, the pending-move bar, history navigation, banner, board tools) and the side
 * panel (info, controls, notes, moves, the chat, the record). Rendering refills them on each change;
 * nothing here is rebuilt.
 */
import { h } from '../../dom.js';
import { identity } from '../../session.js';
import type { Step } from '../../shogi/cursor.js';
import { type BoardTools, boardTools } from '../board-tools.js';
import { type ChatPanel, chatPanel } from './chat.js';
import { type ControlHandlers, type Controls, controls } from './controls.js';
import { type HistoryNav, historyNav } from './history-nav.js';
import { type RecordsPanel, recordsPanel } from './records.js';

export interface GameView {
  readonly title: HTMLElement;
  readonly topBar: HTMLElement;
  readonly bottomBar: HTMLElement;
  /** the stands (komadai): the top one beside the board's top left, the bottom one bottom right */
  readonly topStand: HTMLElement;
  readonly bottomStand: HTMLElement;
  readonly boardBox: HTMLElement;
  /** the board between the stands: one tab stop for the keyboard (board-keys.ts) */
  readonly boardWrap: HTMLElement;
  /** a premove or a move awaiting confirmation, with its buttons */
  readonly pending: HTMLElement;
  readonly banner: HTMLElement;
  readonly nav: HistoryNav;
  readonly tools: BoardTools;
  readonly info: HTMLElement;
  readonly moveList: HTMLElement;
  /** refusals, errors and hints */
  readonly note: HTMLElement;
  readonly controls: Controls;
  readonly records: RecordsPanel;
  readonly chat: ChatPanel;
}

export interface LayoutHandlers extends ControlHandlers {
  show(to: Step): void;
  flip(): void;
}

/** Builds the page's elements into `root`, replacing what was there. */
export function layOutGamePage(root: HTMLElement, gameId: string, on: LayoutHandlers): GameView {
  const view: GameView = {
    title: h('h1', { class: 'game-title' }, 'Game'),
    topBar: h('div', { class: 'player-bar top' }),
    bottomBar: h('div', { class: 'player-bar bottom' }),
    topStand: h('div', { class: 'stand top' }),
    bottomStand: h('div', { class: 'stand bottom' }),
    boardBox: h('div', { class: 'board-box' }),
    boardWrap: h('div', { class: 'board-wrap' }),
    pending: h('div', { class: 'pending', role: 'status' }),
    banner: h('div', { class: 'banner', role: 'status' }),
    nav: historyNav((to) => on.show(to)),
    tools: boardTools(() => on.flip()),
    info: h('p', { class: 'game-info' }),
    moveList: h('ol', { class: 'moves', 'aria-label': 'Moves' }),
    note: h('p', { class: 'note', role: 'alert' }),
    controls: controls(on),
    records: recordsPanel(gameId),
    chat: chatPanel(gameId, () => identity()?.token ?? null),
  };
  const { title, topBar, bottomBar, topStand, bottomStand, boardBox, boardWrap, nav, banner } = view;
  boardWrap.append(topStand, boardBox, bottomStand);
  root.replaceChildren(
    h(
      'section',
      { class: 'game-page' },
      h(
        'div',
        { class: 'play-area' },
        title,
        topBar,
        boardWrap,
        bottomBar,
        view.pending,
        nav.element,
        nav.note,
        banner,
        view.tools.element,
      ),
      h(
        'aside',
        { class: 'side-panel' },
        view.info,
        view.controls.element,
        view.controls.usiForm,
        view.note,
        h('h2', {}, 'Moves'),
        view.moveList,
        view.chat.element,
        view.records.element,
      ),
    ),
  );
  return view;
}
