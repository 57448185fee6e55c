/**
 * The game page: board, hands, clocks, moves (Japanese and USI), spectators and the result.
 * Everyone follows the game on the watch socket and may step back through its positions
 * (history.ts, cursor.ts); a player also moves (click, drag, or a USI typed in), drops (click
 * or drag from the hand), resigns. Moves go over HTTP and show once the worker accepts them.
 */
import type { ChallengeView, GameSnapshot, WireEvent } from '@shogi/protocol';
import { formatUsi, type Game, type Move, moveIllegality, parseUsi } from '@shogi/rules';
import { ApiFailure, api } from '../api.js';
import { announce, h, s as svg } from '../dom.js';
import { lobbySocket } from '../net/lobby.js';
import { watchGame } from '../net/watch.js';
import { identity, pieceStyle, setPieceStyle } from '../session.js';
import { type ClockState, clockFace, initialClock, periodLength, timeControlText } from '../shogi/clock.js';
import {
  type Cursor,
  goTo,
  isLive,
  LIVE,
  movesSinceLeft,
  type Step,
  shownPly,
  step,
  stepForKey,
} from '../shogi/cursor.js';
import { GameHistory } from '../shogi/history.js';
import { moveSquares, promotionChoice, type Targets, targetsFrom } from '../shogi/model.js';
import { resultText } from '../shogi/result.js';
import { boardElement, handElement } from './board.js';
import { followDrag } from './drag.js';

type Side = 'sente' | 'gote';
interface Selection {
  readonly source: { square: number } | { dropType: number };
  readonly targets: Targets;
}

export function gamePage(root: HTMLElement, gameId: string, navigate: (path: string) => void): () => void {
  let snap: GameSnapshot | null = null;
  // every position of the game, replayed from its moves; `game` is its latest, the one moved from
  let history: GameHistory | null = null;
  let game: Game | null = null;
  // which of those positions the board shows: the latest (live) unless the user stepped back
  let cursor: Cursor = LIVE;
  let clock: ClockState | null = null;
  let spectators = 0;
  let connected = false;
  let selection: Selection | null = null;
  let pendingSeq: number | null = null;
  // verdicts by submission seq: the watch socket may bring one before the 202 that names it
  const verdicts = new Map<number, string | null>();
  let sending = false;
  let message = '';
  let botIds = new Set<string>();
  const me = identity();

  const mySide = (): Side | null => {
    if (!snap || !me) return null;
    if (snap.players.sente.id === me.id) return 'sente';
    if (snap.players.gote.id === me.id) return 'gote';
    return null;
  };
  const myTurn = () =>
    game !== null && snap?.status === 'ongoing' && mySide() === (game.position.side === 0 ? 'sente' : 'gote');
  // the board takes moves only at the latest position: an older one is for looking at
  const canMove = () => myTurn() && isLive(cursor);

  // --- layout built once; the parts below are refilled on each change
  const title = h('h1', { class: 'game-title' }, 'Game');
  const topBar = h('div', { class: 'player-bar top' });
  const bottomBar = h('div', { class: 'player-bar bottom' });
  const boardBox = h('div', { class: 'board-box' });
  const banner = h('div', { class: 'banner', role: 'status' });
  // ⏮ ◀ ▶ ⏭ drawn, not typed: the media-control characters are missing from many fonts
  const navIcon = (...shapes: Element[]) =>
    svg('svg', { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true' }, ...shapes);
  const bar = (x: number) => svg('rect', { x, y: 3, width: 2, height: 10 });
  const arrow = (points: string) => svg('polygon', { points });
  const navButton = (to: Step, icon: Element, label: string) =>
    h(
      'button',
      { type: 'button', class: `nav-${to}`, 'aria-label': label, title: label, onclick: () => show(to) },
      icon,
    );
  const navPlace = h('span', { class: 'nav-place' });
  const historyNav = h(
    'div',
    { class: 'history-nav', role: 'group', 'aria-label': 'Step through the moves (← → Home End)' },
    navButton('first', navIcon(bar(2), arrow('14,3 14,13 5,8')), 'Start position (Home)'),
    navButton('back', navIcon(arrow('12,3 12,13 4,8')), 'Previous move (←)'),
    navPlace,
    navButton('forward', navIcon(arrow('4,3 4,13 12,8')), 'Next move (→)'),
    navButton('last', navIcon(arrow('2,3 2,13 11,8'), bar(12)), 'Latest position, live (End)'),
  );
  const historyNote = h('p', { class: 'history-note', role: 'status' });
  const info = h('p', { class: 'game-info' });
  const moveList = h('ol', { class: 'moves', 'aria-label': 'Moves' });
  const note = h('p', { class: 'note', role: 'alert' });
  const usiInput = h('input', {
    id: 'usi-input',
    name: 'usi',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: 'e.g. 7g7f, P*5e, 8h2b+',
    'aria-describedby': 'usi-help',
  });
  const usiForm = h(
    'form',
    {
      class: 'usi-form',
      onsubmit: (e: Event) => {
        e.preventDefault();
        typed();
      },
    },
    h('label', { for: 'usi-input' }, 'Your move (USI)'),
    usiInput,
    h('button', { type: 'submit' }, 'Play'),
    h('small', { id: 'usi-help' }, 'from-square to-square, + to promote; drops as P*5e'),
  );
  const resignButton = h('button', { type: 'button', class: 'danger', onclick: () => resign() }, 'Resign');
  const againButton = h('button', { type: 'button', onclick: () => playAgain() }, 'Play the bot again');
  const abortButton = h('button', { type: 'button', onclick: () => act('abort', 'Abort this game?') }, 'Abort');
  const impasseButton = h(
    'button',
    { type: 'button', onclick: () => act('impasse', 'Declare impasse (27-point rule)? A wrong declaration loses.') },
    'Declare impasse',
  );
  const rematchButton = h('button', { type: 'button', class: 'primary', onclick: () => rematch() }, 'Rematch');
  const offer = h('div', { class: 'offer', role: 'status' });
  const styleToggle = h('button', { type: 'button', class: 'link', onclick: () => toggleStyle() }, '');
  const controls = h(
    'div',
    { class: 'controls' },
    resignButton,
    abortButton,
    impasseButton,
    rematchButton,
    againButton,
    offer,
  );
  const promotion = h(
    'dialog',
    { class: 'promotion', 'aria-label': 'Promote this piece?' },
    h('p', {}, 'Promote?'),
    h(
      'form',
      { method: 'dialog' },
      h('button', { value: 'promote', class: 'primary' }, '成 Promote'),
      h('button', { value: 'plain' }, '不成 Keep'),
      h('button', { value: 'cancel', class: 'link' }, 'Cancel'),
    ),
  );

  root.replaceChildren(
    h(
      'section',
      { class: 'game-page' },
      h('div', { class: 'play-area' }, title, topBar, boardBox, bottomBar, historyNav, historyNote, banner),
      h(
        'aside',
        { class: 'side-panel' },
        info,
        controls,
        usiForm,
        note,
        h('h2', {}, 'Moves'),
        moveList,
        h('p', {}, styleToggle),
      ),
      promotion,
    ),
  );

  // --- state from the watch socket
  const reset = (s: GameSnapshot) => {
    snap = s;
    history = new GameHistory(s.initialSfen, s.ruleset);
    game = history.game;
    for (const usi of s.moves) addMove(usi, false);
    // a snapshot after a reconnect keeps the position the user was looking at
    if (cursor.ply !== null) cursor = goTo(cursor, cursor.ply, history.length);
    clock = s.clock
      ? {
          sente: s.clock.sente,
          gote: s.clock.gote,
          running: s.clock.running,
          since: Date.parse(s.clock.at),
          periodLength: periodLength(s.timeControl),
        }
      : initialClock(s.timeControl, Date.now());
    selection = null;
    render();
  };
  const addMove = (usi: string, live: boolean) => {
    if (!history) return;
    const text = history.play(usi);
    if (text === null || !live) return;
    const check = history.game.position.inCheck() ? ', check' : '';
    announce(`${history.length}. ${text} (${usi})${check}`);
  };
  const apply = (events: WireEvent[]) => {
    if (!snap) return;
    let s: GameSnapshot = snap;
    for (const e of events) {
      const p = e.payload;
      switch (e.type) {
        case 'MoveAccepted': {
          const usi = String(p.usi);
          if (game && Number(p.ply) === game.ply + 1) addMove(usi, true);
          s = { ...s, moves: [...s.moves, usi], ply: s.ply + 1, sfen: String(p.sfen ?? s.sfen) };
          const c = p.clock as { sente: ClockState['sente']; gote: ClockState['gote']; movedAt: string } | undefined;
          // the clocks start once both sides have made their first move
          const running: Side | null =
            Number(p.ply) >= 2 && game ? (game.position.side === 0 ? 'sente' : 'gote') : null;
          if (c) {
            const since = Date.parse(c.movedAt);
            clock = { sente: c.sente, gote: c.gote, running, since, periodLength: periodLength(s.timeControl) };
          }
          verdicts.set(Number(p.submittedSeq), null);
          if (p.submittedSeq === pendingSeq) pendingSeq = null;
          selection = null;
          break;
        }
        case 'MoveRejected':
          verdicts.set(Number(p.submittedSeq), String(p.reason));
          if (p.submittedSeq === pendingSeq) {
            pendingSeq = null;
            message = `Move ${String(p.usi)} refused: ${String(p.reason).replaceAll('_', ' ')}`;
          }
          break;
        case 'GameEnded': {
          const result = { winner: (p.winner ?? null) as Side | null, reason: String(p.reason) };
          s = { ...s, status: 'ended', result };
          if (clock) clock = { ...clock, running: null };
          announce(resultText(result, { sente: s.players.sente.name, gote: s.players.gote.name }));
          break;
        }
        default:
          break;
      }
    }
    if (game) s = { ...s, sideToMove: game.position.side === 0 ? 'sente' : 'gote' };
    snap = s;
    render();
  };

  const watcher = watchGame(gameId, {
    snapshot: reset,
    events: apply,
    spectators(count) {
      spectators = count;
      renderInfo();
    },
    status(up) {
      connected = up;
      renderInfo();
    },
    error(text) {
      message = text;
      renderNote();
    },
  });
  api.bots().then(
    (list) => {
      botIds = new Set(list.bots.map((b) => b.id));
      render();
    },
    () => {},
  );

  // --- moving
  const submit = async (m: Move) => {
    if (!game || !me || !snap || sending) return;
    const usi = formatUsi(m);
    sending = true;
    message = '';
    selection = null;
    render();
    try {
      const answer = await api.move(gameId, me.token, usi, game.ply);
      const verdict = verdicts.get(answer.seq);
      if (verdict === undefined) pendingSeq = answer.seq;
      else if (verdict !== null) message = `Move ${usi} refused: ${verdict.replaceAll('_', ' ')}`;
    } catch (err) {
      message = err instanceof ApiFailure ? `${usi}: ${err.message}` : String(err);
    } finally {
      sending = false;
      render();
    }
  };

  const choosePromotion = (plain: Move, promote: Move): Promise<Move | null> =>
    new Promise((resolve) => {
      promotion.addEventListener(
        'close',
        () => resolve(promotion.returnValue === 'promote' ? promote : promotion.returnValue === 'plain' ? plain : null),
        { once: true },
      );
      promotion.returnValue = '';
      promotion.showModal();
    });

  const moveTo_ = async (target: number) => {
    if (!selection) return;
    const moves = selection.targets.byTarget.get(target);
    if (!moves) return;
    const { plain, promote } = promotionChoice(moves);
    // a prompt only when both are legal; otherwise the one legal form is played
    const chosen = plain !== null && promote !== null ? await choosePromotion(plain, promote) : (plain ?? promote);
    if (chosen === null) {
      selection = null;
      render();
      return;
    }
    await submit(chosen);
  };

  const onSquare = (index: number) => {
    if (!game || !canMove() || sending || pendingSeq !== null) return;
    if (selection?.targets.byTarget.has(index)) {
      void moveTo_(index);
      return;
    }
    const targets = targetsFrom(game, { square: index });
    selection = targets.byTarget.size > 0 ? { source: { square: index }, targets } : null;
    render();
  };

  const onPick = (type: number) => {
    if (!game || !canMove()) return;
    const same = selection && 'dropType' in selection.source && selection.source.dropType === type;
    const targets = targetsFrom(game, { dropType: type });
    selection = same || targets.byTarget.size === 0 ? null : { source: { dropType: type }, targets };
    render();
  };

  /** The board square an element is (or is in), or null. */
  const squareAt = (el: Element | null): number | null => {
    const cell = el?.closest<HTMLElement>('[data-index]');
    return cell && boardBox.contains(cell) ? Number(cell.dataset.index) : null;
  };
  const ghostOf = (el: Element): Node | null => el.querySelector('.piece')?.cloneNode(true) ?? null;

  // drag: press on a piece, release on a target square
  boardBox.addEventListener('pointerdown', (event) => {
    const cell = (event.target as Element).closest<HTMLElement>('[data-index]');
    if (event.button !== 0 || !cell || !game || !canMove() || sending || pendingSeq !== null) return;
    const from = Number(cell.dataset.index);
    if (selection?.targets.byTarget.has(from)) return;
    const targets = targetsFrom(game, { square: from });
    if (targets.byTarget.size === 0) return;
    const ghost = ghostOf(cell);
    selection = { source: { square: from }, targets };
    render();
    followDrag(event, ghost, ({ target }) => {
      const to = squareAt(target);
      if (to !== null && to !== from && selection?.targets.byTarget.has(to)) void moveTo_(to);
    });
  });
  // a click after a drag that stayed on its square keeps the selection (click-click moves)
  boardBox.addEventListener(
    'click',
    (event) => {
      const cell = (event.target as Element).closest<HTMLElement>('[data-index]');
      if (!cell) return;
      const index = Number(cell.dataset.index);
      if (selection && 'square' in selection.source && selection.source.square === index) event.stopPropagation();
    },
    true,
  );

  // drag from the hand: press on a piece in hand, release on a target square. A press released
  // in place is a click (it picks the piece, or unpicks the picked one), so click-then-square
  // works as before; the click event itself is left to the keyboard (Enter, Space)
  const onHandPress = (event: PointerEvent) => {
    const button = (event.target as Element).closest<HTMLElement>('[data-hand]');
    if (event.button !== 0 || !button || !game || !canMove() || sending || pendingSeq !== null) return;
    const type = Number(button.dataset.hand);
    const wasPicked = selection !== null && 'dropType' in selection.source && selection.source.dropType === type;
    const targets = targetsFrom(game, { dropType: type });
    if (targets.byTarget.size === 0) return;
    const ghost = ghostOf(button);
    selection = { source: { dropType: type }, targets };
    render();
    followDrag(event, ghost, ({ target, dragged }) => {
      const to = squareAt(target);
      if (to !== null && selection?.targets.byTarget.has(to)) void moveTo_(to);
      else if (!dragged && wasPicked) {
        selection = null;
        render();
      }
    });
  };
  for (const bar of [topBar, bottomBar]) {
    bar.addEventListener('pointerdown', onHandPress);
    // a pointer's click on a hand piece was handled on the press; a keyboard's (detail 0) was not
    bar.addEventListener(
      'click',
      (event) => {
        if (event.detail > 0 && (event.target as Element).closest('[data-hand]')) event.stopPropagation();
      },
      true,
    );
  }

  const say = (text: string) => {
    message = text;
    renderNote();
  };
  const typed = () => {
    if (!game) return;
    const text = usiInput.value.trim();
    if (!me || !mySide()) return say('You are watching this game.');
    if (!myTurn()) return say('Wait for your turn.');
    if (!isLive(cursor)) return say('You are looking at an earlier position: End returns to the game.');
    const m = parseUsi(text);
    if (m < 0) return say(`"${text}" is not a USI move (7g7f, P*5e, 8h2b+)`);
    const illegal = moveIllegality(game.position, m);
    if (illegal) return say(`${text} is illegal: ${illegal.replaceAll('_', ' ')}`);
    usiInput.value = '';
    void submit(m);
  };

  const resign = () => act('resign', 'Resign this game?');
  const act = async (verb: 'resign' | 'abort' | 'impasse', question: string) => {
    if (!me || !mySide() || snap?.status !== 'ongoing') return;
    if (!confirm(question)) return;
    try {
      await api.post(`/api/games/${encodeURIComponent(gameId)}/${verb}`, {}, me.token);
    } catch (err) {
      say(err instanceof ApiFailure ? err.message : String(err));
    }
  };

  // rematch: an offer to the opponent, answered on their lobby socket (or this page's)
  const rematch = async () => {
    if (!me) return;
    try {
      const c = await api.post<ChallengeView>(`/api/games/${encodeURIComponent(gameId)}/rematch`, {}, me.token);
      if (c.gameId) return navigate(`/games/${c.gameId}`);
      offerIds.add(c.id);
      offer.replaceChildren('Rematch offered; waiting for your opponent…');
    } catch (err) {
      say(err instanceof ApiFailure ? err.message : String(err));
    }
  };
  const offerIds = new Set<string>();
  const lobby = me
    ? lobbySocket(me.token, (m) => {
        if (m.type === 'accepted' && offerIds.has(m.challengeId)) navigate(`/games/${m.gameId}`);
        else if (m.type === 'rematch' && m.challenge.rematchOf === gameId) {
          offerIds.add(m.challenge.id);
          offer.replaceChildren(
            `${m.challenge.challenger.name} offers a rematch. `,
            h('button', { type: 'button', class: 'primary', onclick: () => rematch() }, 'Accept rematch'),
          );
        } else if (m.type === 'declined' && offerIds.has(m.challengeId)) offer.replaceChildren('Rematch declined.');
      })
    : null;

  const opponentBot = (): string | null => {
    const side = mySide();
    if (!snap || !side) return null;
    const other = side === 'sente' ? snap.players.gote.id : snap.players.sente.id;
    return botIds.has(other) ? other : null;
  };
  const playAgain = async () => {
    const bot = opponentBot();
    const side = mySide();
    if (!bot || !me || !side) return;
    try {
      const view = await api.botGame(bot, me.token, side === 'sente' ? 'gote' : 'sente');
      navigate(`/games/${view.id}`);
    } catch (err) {
      message = err instanceof ApiFailure ? err.message : String(err);
      renderNote();
    }
  };

  // --- stepping through the moves: the buttons, the arrow keys, a click on a move
  const show = (to: Step | number) => {
    if (!history) return;
    cursor = typeof to === 'number' ? goTo(cursor, to, history.length) : step(cursor, to, history.length);
    // a half-made move belongs to the live position
    if (!isLive(cursor)) selection = null;
    render();
  };
  const onKey = (event: KeyboardEvent) => {
    const to = stepForKey(event.key);
    if (to === null || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // keys typed in a field, or while the promotion prompt is open, are not for the board
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable], dialog')) return;
    event.preventDefault();
    show(to);
  };
  document.addEventListener('keydown', onKey);

  const toggleStyle = () => {
    setPieceStyle(pieceStyle() === 'kanji' ? 'latin' : 'kanji');
    render();
  };

  // --- rendering
  const renderNote = () => {
    note.textContent = message;
  };
  const renderInfo = () => {
    if (!snap) return;
    const watching = `${spectators} watching`;
    info.replaceChildren(
      h('span', { class: 'spectators', 'aria-label': `${spectators} spectators` }, watching),
      ' · ',
      timeControlText(snap.timeControl),
      snap.rated ? ' · rated' : ' · casual',
      ` · ruleset ${snap.ruleset}`,
      connected ? '' : h('span', { class: 'offline' }, ' · reconnecting…'),
    );
  };
  const renderHistory = (shown: number, latest: number) => {
    navPlace.textContent = `${shown === 0 ? 'Start' : `Move ${shown}`} / ${latest}`;
    const [first, back, forward, last] = historyNav.querySelectorAll('button');
    for (const b of [first, back]) if (b) b.disabled = shown === 0;
    for (const b of [forward, last]) if (b) b.disabled = isLive(cursor);
    const news = movesSinceLeft(cursor, latest);
    historyNote.hidden = isLive(cursor);
    historyNote.className = news > 0 ? 'history-note moved-on' : 'history-note';
    historyNote.replaceChildren(
      news > 0
        ? `The game has moved on: ${news} new move${news > 1 ? 's' : ''}. `
        : 'An earlier position: the board is read-only. ',
      h('button', { type: 'button', class: 'link', onclick: () => show('last') }, 'Back to the game'),
    );
  };
  /** `toMove`: the side to move in the position shown (null: nobody, the game is over and shown live). */
  const playerBar = (side: Side, toMove: Side | null) => {
    if (!snap || !game) return [];
    const turn = toMove === side;
    const player = snap.players[side];
    const parts: (Node | string)[] = [
      h('span', { class: 'mark', 'aria-hidden': 'true' }, side === 'sente' ? '☗' : '☖'),
      h('a', { href: `/players/${player.id}`, 'data-link': true, class: 'name' }, player.name),
      turn ? h('span', { class: 'turn' }, 'to move') : '',
    ];
    if (clock) {
      const running = clock.running === side && snap.status === 'ongoing';
      const face = clockFace(clock[side], running ? Date.now() - clock.since : 0, clock.periodLength);
      parts.push(
        h(
          'span',
          {
            class: `clock${running ? ' running' : ''}${face.low ? ' low' : ''}`,
            'data-side': side,
            'aria-label': `${side} clock ${face.text}${face.periods > 0 ? `, ${face.periods} byoyomi periods` : ''}`,
          },
          h('span', { class: 'time' }, face.text),
          h('span', { class: 'periods', title: 'byoyomi periods' }, face.periods > 0 ? ` ×${face.periods}` : ''),
        ),
      );
    }
    return parts;
  };
  const render = () => {
    if (!snap || !game || !history) return;
    // the board is rebuilt: keep a keyboard user's focus on the same square
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.index;
    const side = mySide();
    const flipped = side === 'gote';
    const style = pieceStyle();
    const latest = history.length;
    const shown = shownPly(cursor, latest);
    const live = isLive(cursor);
    const state = history.boardAt(shown);
    const last = history.moveAt(shown);
    title.textContent = `${snap.players.sente.name} vs ${snap.players.gote.name}`;
    document.title = `${title.textContent} · Shogi`;
    const shownSelection = live ? selection : null;
    const selected = shownSelection && 'square' in shownSelection.source ? shownSelection.source.square : null;
    const dropType = shownSelection && 'dropType' in shownSelection.source ? shownSelection.source.dropType : null;
    const targets = new Set(shownSelection?.targets.byTarget.keys() ?? []);
    const board = boardElement(state, {
      style,
      flipped,
      lastMove: last ? moveSquares(last) : null,
      selected,
      targets,
      onSquare,
    });
    const hand = (s: Side) =>
      handElement(s, state.hands[s === 'sente' ? 0 : 1], {
        style,
        selectedType: dropType,
        ...(s === side && canMove() ? { onPick } : {}),
      });
    const [topSide, bottomSide]: [Side, Side] = flipped ? ['sente', 'gote'] : ['gote', 'sente'];
    // stepped back, the badge follows the board shown (the clocks stay the game's own)
    const liveToMove: Side | null = snap.status === 'ongoing' ? (game.position.side === 0 ? 'sente' : 'gote') : null;
    const toMove = live ? liveToMove : state.sideToMove;
    topBar.replaceChildren(...playerBar(topSide, toMove), hand(topSide));
    bottomBar.replaceChildren(...playerBar(bottomSide, toMove), hand(bottomSide));
    boardBox.replaceChildren(board);
    if (focused !== undefined) boardBox.querySelector<HTMLElement>(`[data-index="${focused}"]`)?.focus();
    boardBox.classList.toggle('my-turn', canMove());
    boardBox.classList.toggle('past', !live);
    const names = { sente: snap.players.sente.name, gote: snap.players.gote.name };
    banner.textContent = snap.result
      ? resultText(snap.result, names)
      : state.inCheck
        ? `Check! ${state.sideToMove === 'sente' ? 'Sente' : 'Gote'} to move`
        : '';
    banner.className = snap.result ? 'banner result' : state.inCheck ? 'banner check' : 'banner';
    const moves = history.moves;
    moveList.replaceChildren(
      ...history.kifu.map((text, i) =>
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
    moveList.querySelector('li.current')?.scrollIntoView({ block: 'nearest' });
    renderHistory(shown, latest);
    const playing = side !== null && snap.status === 'ongoing';
    resignButton.hidden = !playing;
    abortButton.hidden = !playing || snap.ply >= 2;
    impasseButton.hidden = !myTurn() || snap.ply < 2;
    rematchButton.hidden = !(snap.status === 'ended' && side !== null && opponentBot() === null);
    usiForm.hidden = !playing;
    againButton.hidden = !(snap.status === 'ended' && opponentBot() !== null);
    usiInput.disabled = !canMove() || sending || pendingSeq !== null;
    styleToggle.textContent = style === 'kanji' ? 'Show pieces as letters' : 'Show pieces in kanji';
    renderInfo();
    renderNote();
  };

  // only the running clock's text changes between events: the board is not redrawn
  const ticker = setInterval(() => {
    if (!clock || clock.running === null || snap?.status !== 'ongoing') return;
    const side = clock.running;
    const face = clockFace(clock[side], Date.now() - clock.since, clock.periodLength);
    const el = root.querySelector<HTMLElement>(`.clock[data-side="${side}"]`);
    const time = el?.querySelector('.time');
    const periods = el?.querySelector('.periods');
    if (time) time.textContent = face.text;
    if (periods) periods.textContent = face.periods > 0 ? ` ×${face.periods}` : '';
  }, 250);

  void api.game(gameId).catch((err: unknown) => {
    if (err instanceof ApiFailure && err.status === 404) {
      root.replaceChildren(
        h(
          'p',
          { class: 'note' },
          'No game has this id. ',
          h('a', { href: '/', 'data-link': true }, 'Back to the lobby'),
        ),
      );
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
