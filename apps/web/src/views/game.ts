/**
 * The game page: board, stands, clocks, moves (Japanese and USI), spectators, the record and
 * the result. Everyone follows the game on the watch socket and may step back through its
 * positions (history.ts, cursor.ts) and flip the board; a player also moves (click, drag, or
 * a USI typed in), drops (click or drag from the stand), premoves on the opponent's turn,
 * confirms moves when the setting asks, resigns. Moves go over HTTP and show once the worker
 * accepts them. The chat (game/chat.ts) follows the same socket.
 *
 * This file wires the parts in game/ together: the state and its transitions (pure), the
 * elements, the input, the requests, the sounds, and the sockets and timer the page holds open.
 */
import '../styles/game.css';
import { formatUsi } from '@shogi/rules';
import { ApiFailure, api } from '../api.js';
import { announce, h } from '../dom.js';
import { watchGame } from '../net/watch.js';
import { identity } from '../session.js';
import { clockFace } from '../shogi/clock.js';
import type { Step } from '../shogi/cursor.js';
import { moveSquares } from '../shogi/model.js';
import { boardKeys } from './board-keys.js';
import { dismissQuestion } from './confirm-dialog.js';
import { type ActionContext, act, listenForRematch, rematch, submitMove, takeback } from './game/actions.js';
import { boardInput } from './game/board-input.js';
import { chatSeatOf, systemLines } from './game/chat-lines.js';
import { TICK_MS, tickRunningClock } from './game/clocks.js';
import { countdownSecond, countdownSound } from './game/countdown.js';
import { watchFocus } from './game/focus-watch.js';
import { historyKeys } from './game/history-nav.js';
import { type GameView, layOutGamePage } from './game/layout.js';
import { premoveVerdict } from './game/pending-moves.js';
import { renderGame, renderInfo, renderNote } from './game/render.js';
import { boardFlipped, type GamePageState, latestGame, mySide, myTurn, newGamePageState } from './game/state.js';
import { tournamentBar } from './game/tournament-bar.js';
import { applyEvents, resetFrom, showPosition } from './game/transitions.js';
import { readTypedMove } from './game/typed-move.js';
import { reportPanel } from './report.js';
import { onSettingsChange } from './settings-store.js';
import { playSound } from './sounds.js';

export function gamePage(root: HTMLElement, gameId: string, navigate: (path: string) => void): () => void {
  const state = newGamePageState(identity());
  const view = layOutGamePage(root, gameId, {
    show: (to) => show(to),
    flip: () => flip(),
    resign: () => void act(page, 'resign'),
    abort: () => void act(page, 'abort'),
    impasse: () => void act(page, 'impasse'),
    rematch: () => void rematch(page),
    typed: () => typed(),
    takeback: (action) => void takeback(page, action),
  });
  const tournament = tournamentBar(state, gameId);
  view.info.after(tournament.element);
  let seatKey = '';
  let reportShown = false;
  const render = () => {
    tournament.render();
    // the chat's rooms follow the seat and the end of the game
    const snap = state.snap;
    if (snap && !reportShown) {
      reportShown = true;
      // either player but oneself and a bot (it plays with an engine by declaration)
      const names = [snap.players.sente, snap.players.gote]
        .filter((p) => p.title === undefined && p.id !== state.me?.id)
        .map((p) => p.name);
      const panel = reportPanel([...new Set(names)]);
      if (panel !== null) view.records.element.after(panel);
    }
    if (snap) {
      const side = mySide(state);
      const seat = chatSeatOf(
        { player: side !== null, ended: snap.status === 'ended', signedIn: state.me !== null },
        side === null ? null : snap.players[side === 'sente' ? 'gote' : 'sente'].id,
      );
      const key = JSON.stringify(seat);
      if (key !== seatKey) view.chat.seat(seat);
      seatKey = key;
    }
    renderGame(view, state, {
      onSquare: input.onSquare,
      onPick: input.onPick,
      onChoose: input.onChoose,
      confirm,
      cancel: input.cancel,
      show,
      keys,
    });
  };
  const say = (text: string) => {
    state.message = text;
    renderNote(view, state);
  };
  const focus = watchFocus();
  const page: ActionContext = {
    state,
    gameId,
    offer: view.controls.offer,
    offerIds: new Set(),
    accepted: new Map(),
    navigate,
    render,
    say,
    focus,
  };
  const input = boardInput({
    state,
    boardBox: view.boardBox,
    stands: [view.topStand, view.bottomStand],
    render,
    say,
    submit: (m) => submitMove(page, m),
  });
  const keys = boardKeys({
    wrap: view.boardWrap,
    flipped: () => boardFlipped(state),
    onSquare: (index) => input.onSquare(index),
    onPick: (type) => input.onPick(type),
  });
  const confirm = () => {
    const move = state.confirming;
    state.confirming = null;
    if (move !== null) void submitMove(page, move);
  };
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
  const flip = () => {
    state.flipped = !state.flipped;
    announce(
      state.flipped !== (mySide(state) === 'gote') ? 'Board flipped: gote at the bottom' : 'Sente at the bottom',
    );
    render();
  };
  const onEvents = () => {
    // a premove is played as soon as it is the player's turn, if it is legal then
    const game = latestGame(state);
    if (state.premove === null || !game || !myTurn(state)) return;
    const move = state.premove;
    state.premove = null;
    const verdict = premoveVerdict(game, move);
    if (verdict.play) void submitMove(page, move);
    else say(`Premove ${formatUsi(move)} dropped: ${verdict.why} now.`);
  };

  const watcher = followGame(gameId, state, view, render, say, onEvents);
  const lobby = listenForRematch(page);
  const onKey = historyKeys(show);
  const onOtherKeys = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable]')) return;
    if (event.key === 'Escape') input.cancel();
    else if (event.key === 'f' && !event.ctrlKey && !event.metaKey && !event.altKey) flip();
  };
  document.addEventListener('keydown', onKey);
  document.addEventListener('keydown', onOtherKeys);
  const stopSettings = onSettingsChange(() => render());
  let beeped: number | null = null;
  const ticker = setInterval(() => {
    tickRunningClock(root, state);
    beeped = countdown(state, beeped);
  }, TICK_MS);
  void api.game(gameId).catch((err: unknown) => {
    if (err instanceof ApiFailure && err.status === 404) {
      root.replaceChildren(noSuchGame());
      document.title = 'No such game · Shogi';
      watcher.close();
    }
  });

  return () => {
    // a question asked on this page does not follow the player to the next one
    dismissQuestion();
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('keydown', onOtherKeys);
    stopSettings();
    focus.stop();
    clearInterval(ticker);
    watcher.close();
    lobby?.close();
  };
}

/** Beeps the player's own byoyomi countdown; returns the second beeped last. */
function countdown(state: GamePageState, beeped: number | null): number | null {
  const clock = state.clock;
  const side = mySide(state);
  if (!clock || !side || clock.running !== side || state.snap?.status !== 'ongoing') return null;
  const second = countdownSecond(clockFace(clock[side], Date.now() - clock.since, clock.periodLength));
  if (second !== null && second !== beeped) playSound(countdownSound(second));
  return second;
}

/** Opens the watch socket, whose snapshot and events drive the page, and learns which players are bots. */
function followGame(
  gameId: string,
  state: GamePageState,
  view: GameView,
  render: () => void,
  say: (text: string) => void,
  afterEvents: () => void,
): { close(): void } {
  const watcher = watchGame(gameId, {
    snapshot(snap) {
      resetFrom(state, snap, Date.now());
      render();
    },
    events(events) {
      if (!state.snap || !state.history) return;
      const before = state.history.length;
      for (const text of applyEvents(state, events)) announce(text);
      const { players, result } = state.snap;
      for (const text of systemLines(events, { sente: players.sente.name, gote: players.gote.name }, result))
        view.chat.system(text);
      if (state.snap.status !== 'ongoing') {
        state.premove = null;
        // "Resign this game?" means nothing once it has ended
        dismissQuestion();
      }
      moveSound(state, before);
      render();
      afterEvents();
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
    chatHistory: (room, lines) => view.chat.history(room, lines),
    chat: (line) => view.chat.line(line),
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

/** The sound of the latest move that arrived: a capture's knock or a move's click. */
function moveSound(state: GamePageState, before: number): void {
  const history = state.history;
  if (!history || history.length <= before) return;
  const usi = history.moveAt(history.length);
  const squares = usi ? moveSquares(usi) : null;
  if (!squares) return;
  const captured = squares.from !== null && history.boardAt(history.length - 1).squares[squares.to] !== null;
  playSound(captured ? 'capture' : 'move');
}

const noSuchGame = () =>
  h('p', { class: 'note' }, 'No game has this id. ', h('a', { href: '/', 'data-link': true }, 'Back to the lobby'));
