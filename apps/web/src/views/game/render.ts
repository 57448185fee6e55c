/**
 * Drawing the game page from its state: the board and hands are rebuilt whole on each
 * change, the rest refilled in place. The info line and the note also redraw alone, when
 * only they change.
 */
import { h } from '../../dom.js';
import { moveNotation } from '../../prefs/notation.js';
import { pieceStyle } from '../../session.js';
import { timeControlText } from '../../shogi/clock.js';
import { isLive, shownPly } from '../../shogi/cursor.js';
import type { GameHistory } from '../../shogi/history.js';
import { moveSquares } from '../../shogi/model.js';
import { boardElement } from '../board.js';
import { titledText } from '../bot-badge.js';
import type { GameView } from './layout.js';
import { renderPlayerBars } from './player-bars.js';
import { selectedDropType, selectedSquare } from './selection.js';
import { canMove, controlsShown, type GamePageState, latestGame, mySide } from './state.js';
import { banner, styleToggleText } from './wording.js';

export interface RenderHandlers {
  onSquare(index: number): void;
  onPick(type: number): void;
  /** a move in the list was clicked: show the position after it */
  show(ply: number): void;
}

export function renderGame(view: GameView, state: GamePageState, on: RenderHandlers): void {
  const { snap, history } = state;
  if (!snap || !latestGame(state) || !history) return;
  // the board is rebuilt: keep a keyboard user's focus on the same square
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.index;
  const side = mySide(state);
  const style = pieceStyle();
  const latest = history.length;
  const shown = shownPly(state.cursor, latest);
  const live = isLive(state.cursor);
  const board = history.boardAt(shown);
  const last = history.moveAt(shown);
  view.title.textContent = `${titledText(snap.players.sente)} vs ${titledText(snap.players.gote)}`;
  document.title = `${view.title.textContent} · Shogi`;
  const selection = live ? state.selection : null;
  const boardView = boardElement(board, {
    style,
    flipped: side === 'gote',
    lastMove: last ? moveSquares(last) : null,
    selected: selectedSquare(selection),
    targets: new Set(selection?.targets.byTarget.keys() ?? []),
    onSquare: on.onSquare,
  });
  const bars = { top: view.topBar, bottom: view.bottomBar };
  renderPlayerBars(bars, state, board, { style, side, live, dropType: selectedDropType(selection), onPick: on.onPick });
  view.boardBox.replaceChildren(boardView);
  if (focused !== undefined) view.boardBox.querySelector<HTMLElement>(`[data-index="${focused}"]`)?.focus();
  view.boardBox.classList.toggle('my-turn', canMove(state));
  view.boardBox.classList.toggle('past', !live);
  const shownBanner = banner(snap.result, { sente: snap.players.sente.name, gote: snap.players.gote.name }, board);
  view.banner.textContent = shownBanner.text;
  view.banner.className = shownBanner.className;
  renderMoveList(view.moveList, history, shown, on.show);
  view.nav.render(state.cursor, shown, latest);
  view.controls.render(controlsShown(state));
  view.styleToggle.textContent = styleToggleText(style);
  renderInfo(view, state);
  renderNote(view, state);
}

/** The moves, Japanese and USI, each a button to the position after it; the one shown is current. */
function renderMoveList(list: HTMLElement, history: GameHistory, shown: number, show: (ply: number) => void): void {
  const moves = history.moves;
  list.replaceChildren(
    ...history.notation(moveNotation()).map((text, i) =>
      h(
        'li',
        { class: i + 1 === shown ? 'current' : null },
        h(
          'button',
          {
            type: 'button',
            class: 'move',
            'data-ply': i + 1,
            'aria-current': i + 1 === shown ? 'step' : null,
            onclick: () => show(i + 1),
          },
          h('span', { class: 'jp' }, text),
          ' ',
          h('code', { class: 'usi' }, moves[i] ?? ''),
        ),
      ),
    ),
  );
  list.querySelector('li.current')?.scrollIntoView({ block: 'nearest' });
}

/** The line over the controls: spectators, the clock's terms, rated or casual, the ruleset, the connection. */
export function renderInfo(view: GameView, state: GamePageState): void {
  const { snap, spectators } = state;
  if (!snap) return;
  const watching = `${spectators} watching`;
  view.info.replaceChildren(
    h('span', { class: 'spectators', 'aria-label': `${spectators} spectators` }, watching),
    ' · ',
    timeControlText(snap.timeControl),
    snap.rated ? ' · rated' : ' · casual',
    ` · ruleset ${snap.ruleset}`,
    state.connected ? '' : h('span', { class: 'offline' }, ' · reconnecting…'),
  );
}

export function renderNote(view: GameView, state: GamePageState): void {
  view.note.textContent = state.message;
}
