/**
 * Drawing the game page from its state: the board and the stands are rebuilt whole on each
 * change, the rest refilled in place. The info line and the note also redraw alone, when
 * only they change.
 */
import { formatUsi, moveTo, parseUsi } from '@shogi/rules';
import { h, scrollWithin } from '../../dom.js';
import { moveNotation } from '../../prefs/notation.js';
import { timeControlText } from '../../shogi/clock.js';
import { isLive, shownPly } from '../../shogi/cursor.js';
import type { GameHistory } from '../../shogi/history.js';
import { cursorStart } from '../../shogi/keyboard-cursor.js';
import { type BoardState, moveSquares } from '../../shogi/model.js';
import { japaneseMove } from '../../shogi/notation.js';
import { animateArrival } from '../animate.js';
import { boardElement } from '../board.js';
import type { BoardKeys } from '../board-keys.js';
import { titledText } from '../bot-badge.js';
import { settings } from '../settings-store.js';
import type { GameView } from './layout.js';
import { boardAfter } from './pending-moves.js';
import { renderPlayerBars } from './player-bars.js';
import { type ChoiceKind, promotionChooser } from './promotion.js';
import { sfenAt } from './records.js';
import { selectedDropType, selectedSquare } from './selection.js';
import { boardFlipped, canMove, canPremove, controlsShown, type GamePageState, latestGame, mySide } from './state.js';
import { banner } from './wording.js';

export interface RenderHandlers {
  onSquare(index: number): void;
  onPick(type: number): void;
  onChoose(kind: ChoiceKind): void;
  /** the move awaiting confirmation is sent */
  confirm(): void;
  /** the premove or the move awaiting confirmation is dropped */
  cancel(): void;
  /** a move in the list was clicked: show the position after it */
  show(ply: number): void;
  /** the keyboard's cursor over the board and the stands */
  readonly keys: BoardKeys;
}

// the ply each view drew last: one more, and the new move is animated
const drawn = new WeakMap<GameView, number>();

export function renderGame(view: GameView, state: GamePageState, on: RenderHandlers): void {
  const { snap, history } = state;
  const game = latestGame(state);
  if (!snap || !game || !history) return;
  // the board is rebuilt: a keyboard user's focus goes back to the cursor's place
  const refocus = on.keys.hasFocus();
  const side = mySide(state);
  const prefs = settings();
  const style = prefs.pieceSet;
  const flipped = boardFlipped(state);
  const latest = history.length;
  const shown = shownPly(state.cursor, latest);
  const live = isLive(state.cursor);
  const confirming = live ? state.confirming : null;
  const board: BoardState = (confirming !== null && boardAfter(game, confirming)) || history.boardAt(shown);
  const last = confirming !== null ? formatUsi(confirming) : history.moveAt(shown);
  view.title.textContent = `${titledText(snap.players.sente)} vs ${titledText(snap.players.gote)}`;
  document.title = `${view.title.textContent} · Shogi`;
  const selection = live ? state.selection : null;
  const boardView = boardElement(board, {
    style,
    flipped,
    lastMove: last ? moveSquares(last) : null,
    selected: selectedSquare(selection),
    targets: new Set(selection?.targets.byTarget.keys() ?? []),
    premove: live && state.premove !== null ? moveSquares(formatUsi(state.premove)) : null,
    onSquare: on.onSquare,
  });
  const parts = { top: view.topBar, bottom: view.bottomBar, topStand: view.topStand, bottomStand: view.bottomStand };
  renderPlayerBars(parts, state, board, {
    style,
    flipped,
    side,
    live,
    handInput: canMove(state) || (canPremove(state) && prefs.premoves),
    dropType: selectedDropType(selection),
    onPick: on.onPick,
  });
  view.boardBox.replaceChildren(boardView);
  const choosing = state.choice !== null && live;
  on.keys.sync(refocus && !choosing, cursorStart(last ? moveSquares(last) : null));
  if (state.choice && choosing) {
    const chooser = promotionChooser(state.choice, { flipped, style }, on.onChoose);
    boardView.querySelector('.board')?.append(chooser);
    chooser.querySelector<HTMLElement>('button.promote')?.focus();
  }
  view.boardBox.classList.toggle('my-turn', canMove(state) || (canPremove(state) && prefs.premoves));
  view.boardBox.classList.toggle('past', !live);
  animate(view, state, shown, prefs.animation);
  renderPending(view, state, on);
  const shownBanner = banner(snap.result, { sente: snap.players.sente.name, gote: snap.players.gote.name }, board);
  view.banner.textContent = shownBanner.text;
  view.banner.className = shownBanner.className;
  renderMoveList(view.moveList, history, shown, on.show);
  view.nav.render(state.cursor, shown, latest);
  view.tools.render(state.flipped);
  view.controls.render(controlsShown(state));
  view.records.render(sfenAt(history, snap.initialSfen, shown), shown);
  renderInfo(view, state);
  renderNote(view, state);
}

function animate(view: GameView, state: GamePageState, shown: number, enabled: boolean): void {
  const before = drawn.get(view);
  drawn.set(view, shown);
  const history = state.history;
  const dragged = state.dragged;
  state.dragged = false;
  if (!enabled || dragged || before !== shown - 1 || !history) return;
  const usi = history.moveAt(shown);
  const squares = usi ? moveSquares(usi) : null;
  if (!squares) return;
  const mover = history.boardAt(shown).sideToMove === 'sente' ? 'gote' : 'sente';
  const stand = view.boardBox.parentElement?.querySelector(`.hand-${mover}`) ?? null;
  animateArrival(view.boardBox, squares, squares.from === null ? stand : null);
}

/** The bar under the board: a move awaiting confirmation, or a premove, each with its buttons. */
function renderPending(view: GameView, state: GamePageState, on: RenderHandlers): void {
  const game = latestGame(state);
  const history = state.history;
  if (state.confirming !== null && game && history) {
    const usi = formatUsi(state.confirming);
    const previous = history.moveAt(history.length);
    const text = japaneseMove(game, usi, previous ? moveTo(parseUsi(previous)) : null);
    view.pending.hidden = false;
    view.pending.className = 'pending confirming';
    view.pending.replaceChildren(
      `Play ${text} (${usi})? `,
      h('button', { type: 'button', class: 'primary confirm-move', onclick: () => on.confirm() }, 'Confirm'),
      h('button', { type: 'button', class: 'cancel-move', onclick: () => on.cancel() }, 'Cancel'),
    );
  } else if (state.premove !== null) {
    view.pending.hidden = false;
    view.pending.className = 'pending premove';
    view.pending.replaceChildren(
      `Premove ${formatUsi(state.premove)}: played when your turn comes, if it is legal then. `,
      h('button', { type: 'button', class: 'cancel-premove', onclick: () => on.cancel() }, 'Cancel premove'),
    );
  } else {
    view.pending.hidden = true;
    view.pending.replaceChildren();
  }
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
  scrollWithin(list, list.querySelector('li.current'));
}

/** The line over the controls: spectators, the clock's terms, rated or casual, the rules, the connection. */
export function renderInfo(view: GameView, state: GamePageState): void {
  const { snap, spectators } = state;
  if (!snap) return;
  const watching = `${spectators} watching`;
  view.info.replaceChildren(
    h('span', { class: 'spectators', 'aria-label': `${spectators} spectators` }, watching),
    ' · ',
    timeControlText(snap.timeControl),
    snap.rated ? ' · rated' : ' · casual',
    rulesText(snap.ruleset),
    state.connected ? '' : h('span', { class: 'offline' }, ' · reconnecting…'),
  );
}

/** The rules, named only when they are not the usual ones. */
const rulesText = (ruleset: string): string => (ruleset === 'jsa' ? ' · JSA tournament rules' : '');

export function renderNote(view: GameView, state: GamePageState): void {
  view.note.textContent = state.message;
}
