/**
 * The analysis board (`/analysis/:gameId`, or `/analysis?sfen=…` for any position), loaded
 * lazily: free moves for either side, legal by @shogi/rules, branching off the game's line
 * and back to it; and the server's engine analysis of the game when there is one (the
 * evaluation graph, the best move as an arrow, the mistakes marked in the moves), with a
 * button to ask for it and its progress from the watch socket; and an "Engine" switch that
 * evaluates whatever position is shown (analysis/live-toggle.ts, its code loaded on demand).
 */
import '../styles/analysis.css';
import type { GameView } from '@shogi/protocol';
import { formatUsi, type Move, moveTo, parseSfen, parseUsi, START_SFEN, toSfen } from '@shogi/rules';
import { api } from '../api.js';
import { announce, h, scrollWithin } from '../dom.js';
import type { Step } from '../shogi/cursor.js';
import { cursorStart } from '../shogi/keyboard-cursor.js';
import { type BoardState, boardOf, moveSquares, promotionChoice } from '../shogi/model.js';
import { japaneseMove } from '../shogi/notation.js';
import { failureSentence } from '../words/errors.js';
import { type EngineFollower, followEngine } from './analysis/engine.js';
import { JUDGMENT_MARKS, judgmentCounts, scoreText } from './analysis/eval.js';
import { evalGraph } from './analysis/eval-graph.js';
import { type ExplorerPanel, explorerPanel } from './analysis/explorer-panel.js';
import { liveToggle } from './analysis/live-toggle.js';
import { type MoveTree, MoveTree as Tree, type TreeNode } from './analysis/tree.js';
import { boardElement, handElement } from './board.js';
import { boardKeys } from './board-keys.js';
import { type BoardTools, boardTools } from './board-tools.js';
import { historyKeys, NAV_ICONS } from './game/history-nav.js';
import { promotionChooser } from './game/promotion.js';
import {
  isTarget,
  noDropReason,
  pickFromHand,
  selectedDropType,
  selectedSquare,
  selectionFrom,
} from './game/selection.js';
import type { PromotionChoice, Selection } from './game/state.js';
import { onSettingsChange, settings } from './settings-store.js';
import { playSound } from './sounds.js';

interface AnalysisState {
  readonly tree: MoveTree;
  readonly game: GameView | null;
  node: TreeNode;
  flipped: boolean;
  selection: Selection | null;
  choice: PromotionChoice | null;
  message: string;
}

export function analysisPage(root: HTMLElement, gameId: string | null): () => void {
  root.replaceChildren(h('p', {}, 'Loading…'));
  let stop = () => {};
  let left = false;
  start(gameId).then(
    ({ tree, game }) => {
      if (left) return;
      const hash = Number(location.hash.slice(1));
      const node =
        Number.isInteger(hash) && hash >= 0 && location.hash ? tree.mainlineAt(hash) : tree.lineEnd(tree.root);
      stop = mount(root, { tree, game, node, flipped: false, selection: null, choice: null, message: '' });
    },
    (err: unknown) => {
      if (!left) root.replaceChildren(h('p', { class: 'note' }, failureSentence(err)));
    },
  );
  return () => {
    left = true;
    stop();
  };
}

async function start(gameId: string | null): Promise<{ tree: MoveTree; game: GameView | null }> {
  if (gameId === null) {
    const sfen = new URLSearchParams(location.search).get('sfen')?.replaceAll('_', ' ') ?? START_SFEN;
    const parsed = parseSfen(sfen);
    if (!parsed.ok) throw new Error(`This is not a position in SFEN: ${sfen}`);
    return { tree: new Tree(sfen, []), game: null };
  }
  // a missing game's answer already says so in words: "This game does not exist."
  const game = await api.game(gameId);
  document.title = `Analysis: ${game.players.sente.name} vs ${game.players.gote.name} · Shogi`;
  return { tree: new Tree(game.initialSfen, game.moves), game };
}

interface Parts {
  readonly title: HTMLElement;
  readonly topStand: HTMLElement;
  readonly bottomStand: HTMLElement;
  readonly boardBox: HTMLElement;
  readonly boardWrap: HTMLElement;
  readonly nav: HTMLElement;
  readonly back: HTMLButtonElement;
  readonly note: HTMLElement;
  readonly tools: BoardTools;
  readonly engine: HTMLElement;
  readonly live: ReturnType<typeof liveToggle>;
  readonly moves: HTMLElement;
  readonly sfen: HTMLInputElement;
  readonly explorer: ExplorerPanel;
}

function mount(root: HTMLElement, state: AnalysisState): () => void {
  const { tree, game } = state;
  const go = (node: TreeNode | null | undefined) => {
    if (!node) return;
    state.node = node;
    state.selection = null;
    state.choice = null;
    render();
  };
  const step = (to: Step) => {
    const n = state.node;
    go(to === 'first' ? tree.root : to === 'back' ? n.parent : to === 'forward' ? n.children[0] : tree.lineEnd(n));
  };
  const navButton = (to: Step, label: string) =>
    h(
      'button',
      { type: 'button', class: `nav-${to}`, 'aria-label': label, title: label, onclick: () => step(to) },
      NAV_ICONS[to](),
    );
  let liveBest: string | null = null;
  const parts: Parts = {
    title: h('h1', { class: 'game-title' }, 'Analysis board'),
    topStand: h('div', { class: 'stand top' }),
    bottomStand: h('div', { class: 'stand bottom' }),
    boardBox: h('div', { class: 'board-box my-turn' }),
    boardWrap: h('div', { class: 'board-wrap' }),
    nav: h(
      'div',
      { class: 'history-nav', role: 'group', 'aria-label': 'Step through the moves (← → Home End)' },
      navButton('first', 'Start position (Home)'),
      navButton('back', 'Previous move (←)'),
      navButton('forward', 'Next move (→)'),
      navButton('last', 'End of this line (End)'),
    ),
    back: h(
      'button',
      { type: 'button', class: 'back-to-game', onclick: () => go(tree.mainlineAncestor(state.node)) },
      'Back to the game line',
    ),
    note: h('p', { class: 'note', role: 'alert' }),
    tools: boardTools(() => {
      state.flipped = !state.flipped;
      render();
    }),
    engine: h('section', { class: 'engine', 'aria-label': 'Engine analysis' }),
    // the live engine's best move, drawn as an arrow; redrawn after the change, not inside it
    live: liveToggle((usi) => {
      liveBest = usi;
      queueMicrotask(render);
    }),
    moves: h('div', { class: 'tree-moves', 'aria-label': 'Moves and branches' }),
    // a move clicked in the explorer is played on the board, as if moved there
    explorer: explorerPanel((usi) => {
      const m = parseUsi(usi);
      if (m >= 0) play(m);
    }),
    sfen: h('input', {
      id: 'analysis-sfen',
      readonly: true,
      class: 'sfen-field',
      'aria-label': 'SFEN of the position shown',
    }),
  };
  const copy = h(
    'button',
    {
      type: 'button',
      onclick: () => {
        parts.sfen.select();
        void navigator.clipboard?.writeText(parts.sfen.value).catch(() => {});
      },
    },
    'Copy SFEN',
  );
  parts.boardWrap.append(parts.topStand, parts.boardBox, parts.bottomStand);
  root.replaceChildren(
    h(
      'section',
      { class: 'analysis-page' },
      h(
        'div',
        { class: 'play-area' },
        parts.title,
        parts.boardWrap,
        h('div', { class: 'analysis-nav' }, parts.nav, parts.back),
        parts.note,
        parts.tools.element,
      ),
      h(
        'aside',
        { class: 'side-panel' },
        parts.live.element,
        parts.engine,
        h('h2', {}, 'Moves'),
        parts.moves,
        h('p', { class: 'sfen-line' }, parts.sfen, copy),
        parts.explorer.element,
        game
          ? h(
              'p',
              {},
              h('a', { href: `/games/${encodeURIComponent(game.id)}`, 'data-link': true }, 'Back to the game page'),
            )
          : null,
      ),
    ),
  );
  const engine: EngineFollower | null = game && game.status === 'ended' ? followEngine(game.id, () => render()) : null;

  const play = (m: Move) => {
    const before = tree.gameAt(state.node);
    const usi = formatUsi(m);
    const next = tree.play(state.node, usi);
    if (!next) return;
    const squares = moveSquares(usi);
    const captured = squares && squares.from !== null && boardOf(before).squares[squares.to] !== null;
    playSound(captured ? 'capture' : 'move');
    announce(`${next.ply}. ${next.japanese}${next.mainline ? '' : ' (branch)'}`);
    go(next);
  };
  const onSquare = (index: number) => {
    if (state.choice) {
      state.choice = null;
      return render();
    }
    const position = tree.gameAt(state.node);
    const sel = state.selection;
    const moves = sel?.targets.byTarget.get(index);
    if (sel && moves && isTarget(sel, index)) {
      const { plain, promote } = promotionChoice(moves);
      if (plain !== null && promote !== null) {
        const from = selectedSquare(sel);
        const piece = from === null ? null : boardOf(position).squares[from];
        state.choice = {
          to: index,
          plain,
          promote,
          type: piece?.type ?? 1,
          gote: piece?.gote ?? false,
          premove: false,
        };
        state.selection = null;
        return render();
      }
      const chosen = plain ?? promote;
      if (chosen !== null) play(chosen);
      return;
    }
    state.selection = selectionFrom(position, { square: index });
    render();
  };
  const onPick = (type: number) => {
    const position = tree.gameAt(state.node);
    const was = selectedDropType(state.selection) === type;
    state.selection = pickFromHand(position, state.selection, type);
    state.message = !state.selection && !was ? noDropReason(position, type) : '';
    render();
  };
  const onChoose = (kind: 'promote' | 'plain' | null) => {
    const choice = state.choice;
    state.choice = null;
    if (choice && kind) play(kind === 'promote' ? choice.promote : choice.plain);
    else render();
  };

  const cancel = () => {
    if (!state.selection && !state.choice) return;
    state.selection = null;
    state.choice = null;
    render();
  };
  const keys = boardKeys({ wrap: parts.boardWrap, flipped: () => state.flipped, onSquare, onPick });

  function render(): void {
    // the board is rebuilt: a keyboard user's focus goes back to the cursor's place
    const refocus = keys.hasFocus();
    const position = tree.gameAt(state.node);
    const board = boardOf(position);
    const prefs = settings();
    const style = prefs.pieceSet;
    const flipped = state.flipped;
    const analysed = engine?.state.analysis?.plies ?? [];
    const here = state.node.mainline ? analysed[state.node.ply] : undefined;
    const best = here?.best ? moveSquares(here.best) : null;
    const live = liveBest === null || liveBest === here?.best ? null : moveSquares(liveBest);
    const boardView = boardElement(board, {
      style,
      flipped,
      lastMove: state.node.usi ? moveSquares(state.node.usi) : null,
      selected: selectedSquare(state.selection),
      targets: new Set(state.selection?.targets.byTarget.keys() ?? []),
      arrows: [best, live].filter((a) => a !== null),
      onSquare,
    });
    parts.boardBox.replaceChildren(boardView);
    renderStands(parts, board, state, style, onPick);
    keys.sync(refocus && !state.choice, cursorStart(state.node.usi ? moveSquares(state.node.usi) : null));
    if (state.choice) {
      const chooser = promotionChooser(state.choice, { flipped, style }, onChoose);
      boardView.querySelector('.board')?.append(chooser);
      chooser.querySelector<HTMLElement>('button.promote')?.focus();
    }
    // a free board (no game) has no game line to go back to: every move there is the user's own
    parts.back.hidden = state.node.mainline || game === null;
    parts.note.textContent = state.message;
    state.message = '';
    parts.tools.render(flipped);
    parts.sfen.value = toSfen(position.position);
    if (game) parts.title.textContent = `Analysis: ${game.players.sente.name} vs ${game.players.gote.name}`;
    for (const b of parts.nav.querySelectorAll<HTMLButtonElement>('.nav-first, .nav-back'))
      b.disabled = state.node.parent === null;
    for (const b of parts.nav.querySelectorAll<HTMLButtonElement>('.nav-forward, .nav-last'))
      b.disabled = state.node.children.length === 0;
    renderMoves(parts.moves, tree, state.node, analysed, go);
    renderEngine(parts.engine, state, engine, board, go);
    parts.live.show(tree.initialSfen, movesTo(state.node), board.sideToMove);
    parts.explorer.show(tree.initialSfen, movesTo(state.node));
  }

  const onKey = historyKeys(step);
  const onEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !(event.target as Element | null)?.closest('input, textarea, select')) cancel();
  };
  document.addEventListener('keydown', onKey);
  document.addEventListener('keydown', onEscape);
  const stopSettings = onSettingsChange(() => render());
  render();
  return () => {
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('keydown', onEscape);
    stopSettings();
    engine?.close();
    parts.live.close();
  };
}

/** The moves from the start to the node, in order. */
function movesTo(node: TreeNode): string[] {
  const moves: string[] = [];
  for (let n: TreeNode | null = node; n?.usi; n = n.parent) moves.push(n.usi);
  return moves.reverse();
}

function renderStands(
  parts: Parts,
  board: BoardState,
  state: AnalysisState,
  style: 'kanji' | 'latin',
  onPick: (type: number) => void,
): void {
  const hand = (side: 'sente' | 'gote') =>
    handElement(side, board.hands[side === 'sente' ? 0 : 1], {
      style,
      flipped: state.flipped,
      selectedType: selectedDropType(state.selection),
      ...(board.sideToMove === side ? { onPick } : {}),
    });
  parts.topStand.replaceChildren(hand(state.flipped ? 'sente' : 'gote'));
  parts.bottomStand.replaceChildren(hand(state.flipped ? 'gote' : 'sente'));
}

type Plies = readonly { ply: number; judgment: string | null }[];

/** The moves as lines: the game's, and each branch in brackets after the move it replaces. */
function renderMoves(
  list: HTMLElement,
  tree: MoveTree,
  current: TreeNode,
  plies: Plies,
  go: (n: TreeNode) => void,
): void {
  const moveButton = (n: TreeNode) => {
    const judgment = n.mainline ? (plies[n.ply]?.judgment ?? null) : null;
    const mark = judgment ? JUDGMENT_MARKS[judgment as keyof typeof JUDGMENT_MARKS] : '';
    return h(
      'button',
      {
        type: 'button',
        class: `move${n === current ? ' current' : ''}${n.mainline ? '' : ' branch'}${judgment ? ` ${judgment}` : ''}`,
        'data-node': n.id,
        'data-ply': n.ply,
        'aria-current': n === current ? 'step' : null,
        title: n.usi ?? '',
        onclick: () => go(n),
      },
      `${n.ply}. ${n.japanese}`,
      mark ? h('span', { class: 'judgment', title: judgment ?? '' }, mark) : '',
    );
  };
  const line = (first: TreeNode): Node[] => {
    const out: Node[] = [];
    for (let n: TreeNode | undefined = first; n; n = n.children[0]) {
      out.push(moveButton(n));
      const siblings: readonly TreeNode[] = n.parent?.children ?? [];
      if (siblings[0] === n)
        for (const branch of siblings.slice(1)) out.push(h('span', { class: 'variation' }, '(', ...line(branch), ')'));
    }
    return out;
  };
  const first = tree.root.children[0];
  list.replaceChildren(...(first ? line(first) : [h('p', { class: 'hint' }, 'Play a move on the board.')]));
  scrollWithin(list, list.querySelector('.move.current'));
}

function renderEngine(
  box: HTMLElement,
  state: AnalysisState,
  engine: EngineFollower | null,
  board: BoardState,
  go: (n: TreeNode) => void,
): void {
  const { game, tree, node } = state;
  if (!game)
    return void box.replaceChildren(
      h(
        'p',
        {},
        'A free board: turn the engine on to evaluate the position shown; whole games are analysed from their game page.',
      ),
    );
  if (!engine) return void box.replaceChildren(h('p', {}, 'The engine can analyse this game once it has ended.'));
  const { analysis, progress, problem, loaded } = engine.state;
  const ask = (label: string) =>
    h('button', { type: 'button', class: 'primary request-analysis', onclick: () => void engine.request() }, label);
  const parts: (Node | string)[] = [];
  if (!loaded) parts.push(h('p', {}, 'Reading the analysis…'));
  else if (analysis === null) parts.push(h('p', {}, 'No computer analysis yet. '), ask('Request computer analysis'));
  else if (analysis.status === 'queued' || analysis.status === 'running') {
    const total = progress?.total ?? game.moves.length + 1;
    const done = progress?.done ?? analysis.plies.length;
    parts.push(
      h('p', { class: 'analysis-progress', role: 'status' }, `Analysing: ${done} of ${total} positions`),
      h('progress', { max: total, value: done }),
    );
  } else if (analysis.status === 'failed') parts.push(h('p', {}, 'The analysis failed. '), ask('Try again'));
  if (analysis && analysis.plies.length > 0) {
    const here = node.mainline ? analysis.plies[node.ply] : undefined;
    const engineName =
      'depth' in analysis.engine ? `${analysis.engine.name}, depth ${analysis.engine.depth}` : analysis.engine.name;
    parts.push(
      h(
        'p',
        { class: 'eval' },
        here
          ? h('strong', { class: 'score' }, scoreText(here.score, board.sideToMove))
          : 'Off the game line: no engine score here.',
        here?.best ? h('span', { class: 'best' }, ` · best ${bestText(tree, node, here.best)}`) : '',
      ),
      evalGraph(analysis.plies, node.mainline ? node.ply : null, (ply) => go(tree.mainlineAt(ply))),
      h('p', { class: 'engine-name' }, engineName),
    );
    if (analysis.status === 'done') parts.push(summary(analysis.plies, tree));
  }
  if (problem) parts.push(h('p', { class: 'note' }, problem));
  box.replaceChildren(...parts);
}

/** The best move in Japanese notation (and USI), played from the node shown. */
function bestText(tree: MoveTree, node: TreeNode, usi: string): string {
  const previous = node.usi ? moveTo(parseUsi(node.usi)) : null;
  return `${japaneseMove(tree.gameAt(node), usi, previous)} (${usi})`;
}

function summary(plies: readonly Parameters<typeof judgmentCounts>[0][number][], tree: MoveTree): HTMLElement {
  const first = tree.initialSfen.split(' ')[1] === 'w' ? 'gote' : 'sente';
  const counts = judgmentCounts(plies, first);
  const row = (side: 'sente' | 'gote') =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, side === 'sente' ? '☗ Sente' : '☖ Gote'),
      h('td', {}, String(counts[side].inaccuracy)),
      h('td', {}, String(counts[side].mistake)),
      h('td', {}, String(counts[side].blunder)),
    );
  return h(
    'table',
    { class: 'judgments' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, ''),
        h('th', {}, 'Inaccuracies ?!'),
        h('th', {}, 'Mistakes ?'),
        h('th', {}, 'Blunders ??'),
      ),
    ),
    h('tbody', {}, row('sente'), row('gote')),
  );
}
