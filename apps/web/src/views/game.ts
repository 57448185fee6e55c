/**
 * The game page: board, hands, clocks, moves (Japanese and USI), spectators and the result.
 * Everyone follows the game on the watch socket and may step back through its positions
 * (history.ts, cursor.ts); a player also moves (click, drag, or a USI typed in), drops (click
 * or drag from the hand), resigns. Moves go over HTTP and show once the worker accepts them.
 *
 * This file wires the parts in game/ together: the state and its transitions (pure), the
 * elements, the input, the requests, and the sockets and timer the page holds open.
 */
import { ApiFailure, api } from '../api.js';
import { announce, h } from '../dom.js';
import { watchGame } from '../net/watch.js';
import { identity, pieceStyle, setPieceStyle } from '../session.js';
import type { Step } from '../shogi/cursor.js';
import { type ActionContext, act, listenForRematch, rematch, submitMove } from './game/actions.js';
import { boardInput } from './game/board-input.js';
import { TICK_MS, tickRunningClock } from './game/clocks.js';
import { historyKeys } from './game/history-nav.js';
import { type GameView, layOutGamePage } from './game/layout.js';
import { renderGame, renderInfo, renderNote } from './game/render.js';
import { type GamePageState, newGamePageState } from './game/state.js';
import { applyEvents, resetFrom, showPosition } from './game/transitions.js';
import { readTypedMove } from './game/typed-move.js';

export function gamePage(root: HTMLElement, gameId: string, navigate: (path: string) => void): () => void {
  const state = newGamePageState(identity());
  const view = layOutGamePage(root, {
    show: (to) => show(to),
    toggleStyle: () => toggleStyle(),
    resign: () => void act(page, 'resign'),
    abort: () => void act(page, 'abort'),
    impasse: () => void act(page, 'impasse'),
    rematch: () => void rematch(page),
    typed: () => typed(),
  });
  const render = () => renderGame(view, state, { onSquare: input.onSquare, onPick: input.onPick, show });
  const say = (text: string) => {
    state.message = text;
    renderNote(view, state);
  };
  const page: ActionContext = {
    state,
    gameId,
    offer: view.controls.offer,
    offerIds: new Set(),
    accepted: new Map(),
    navigate,
    render,
    say,
  };
  const input = boardInput({
    state,
    boardBox: view.boardBox,
    bars: [view.topBar, view.bottomBar],
    promotion: view.promotion,
    render,
    submit: (m) => submitMove(page, m),
  });
  const typed = () => {
    const answer = readTypedMove(state, view.controls.usiInput.value.trim());
    if (answer === null) return;
    if ('problem' in answer) return say(answer.problem);
    view.controls.usiInput.value = '';
    void submitMove(page, answer.move);
  };
  // stepping through the moves: the buttons, the arrow keys, a click on a move
  const show = (to: Step | number) => {
    if (showPosition(state, to)) render();
  };
  const toggleStyle = () => {
    setPieceStyle(pieceStyle() === 'kanji' ? 'latin' : 'kanji');
    render();
  };

  const watcher = followGame(gameId, state, view, render, say);
  const lobby = listenForRematch(page);
  const onKey = historyKeys(show);
  document.addEventListener('keydown', onKey);
  const ticker = setInterval(() => tickRunningClock(root, state), TICK_MS);
  void api.game(gameId).catch((err: unknown) => {
    if (err instanceof ApiFailure && err.status === 404) {
      root.replaceChildren(noSuchGame());
      watcher.close();
    }
  });

  return () => {
    document.removeEventListener('keydown', onKey);
    clearInterval(ticker);
    watcher.close();
    lobby?.close();
  };
}

/** Opens the watch socket, whose snapshot and events drive the page, and learns which players are bots. */
function followGame(
  gameId: string,
  state: GamePageState,
  view: GameView,
  render: () => void,
  say: (text: string) => void,
): { close(): void } {
  const watcher = watchGame(gameId, {
    snapshot(snap) {
      resetFrom(state, snap, Date.now());
      render();
    },
    events(events) {
      if (!state.snap) return;
      for (const text of applyEvents(state, events)) announce(text);
      render();
    },
    spectators(count) {
      state.spectators = count;
      renderInfo(view, state);
    },
    status(up) {
      state.connected = up;
      renderInfo(view, state);
    },
    error: say,
  });
  api.bots().then(
    (list) => {
      state.botIds = new Set(list.bots.map((b) => b.playerId ?? b.id));
      render();
    },
    () => {},
  );
  return watcher;
}

const noSuchGame = () =>
  h('p', { class: 'note' }, 'No game has this id. ', h('a', { href: '/', 'data-link': true }, 'Back to the lobby'));
