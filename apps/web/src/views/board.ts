/**
 * The board and the hands as DOM: every square a button labelled for screen readers
 * ("7g, sente pawn"), every piece a `.piece` holding its SVG drawing, the last move, a
 * checked king, a premove and a move awaiting confirmation marked, the star points and the
 * engine's arrows drawn over the grid. Redrawn whole on each change: 81 buttons cost nothing.
 * A board that takes moves is one tab stop, its squares and stands walked by the arrow keys
 * (board-keys.ts); one that does not (the explorer's) has labelled squares that are not buttons.
 */
import '../styles/board.css';
import { h, s } from '../dom.js';
import type { BoardState } from '../shogi/model.js';
import { type PieceStyle, pieceWord } from '../shogi/pieces.js';
import { pieceSvg } from './piece-svg.js';

export type Squares = { readonly from: number | null; readonly to: number };

export interface BoardOptions {
  readonly style: PieceStyle;
  /** gote at the bottom */
  readonly flipped: boolean;
  readonly mini?: boolean;
  readonly lastMove?: Squares | null;
  readonly selected?: number | null;
  readonly targets?: ReadonlySet<number>;
  /** a premove waiting for the player's turn */
  readonly premove?: Squares | null;
  /** arrows drawn over the board (the engine's best move), from a square or, for a drop, the hand */
  readonly arrows?: readonly Squares[];
  readonly onSquare?: (index: number, event: PointerEvent | MouseEvent) => void;
}

const FILES = '987654321';
const RANKS = 'abcdefghi';
const KAN = '一二三四五六七八九';
const name = (i: number) => `${FILES[i % 9]}${RANKS[(i / 9) | 0]}`;
const touches = (m: Squares | null | undefined, i: number) => !!m && (m.to === i || m.from === i);

/** Where a board index is drawn, in cells from the top left, given the orientation. */
export function displayCell(index: number, flipped: boolean): { row: number; col: number } {
  const shown = flipped ? 80 - index : index;
  return { row: (shown / 9) | 0, col: shown % 9 };
}

export function boardElement(state: BoardState, o: BoardOptions): HTMLElement {
  const order = Array.from({ length: 81 }, (_, i) => (o.flipped ? 80 - i : i));
  const cells = order.map((i) => {
    const piece = state.squares[i] ?? null;
    const side = piece ? (piece.gote ? 'gote' : 'sente') : '';
    const label = piece ? `${name(i)}, ${side} ${pieceWord(piece.type)}` : `${name(i)}, empty`;
    const classes = ['sq'];
    if (touches(o.lastMove, i)) classes.push('last');
    if (state.checkedKing === i) classes.push('check');
    if (o.selected === i) classes.push('selected');
    if (o.targets?.has(i)) classes.push(piece ? 'target capture' : 'target');
    if (touches(o.premove, i)) classes.push('premove');
    const content = piece
      ? h(
          'span',
          { class: `piece ${side}`, 'data-piece': piece.type },
          pieceSvg(piece.type, piece.gote !== o.flipped, o.style, piece.gote),
        )
      : null;
    if (o.mini) return h('div', { class: classes.join(' ') }, content);
    const extra = o.targets?.has(i) ? ', legal target' : touches(o.premove, i) ? ', premove' : '';
    // a board that takes no moves (the explorer's) is read, not pressed: no 81 stops in the tab order
    if (!o.onSquare)
      return h(
        'div',
        { class: classes.join(' '), 'data-sq': name(i), 'data-index': i, role: 'img', 'aria-label': label + extra },
        content,
      );
    return h(
      'button',
      {
        type: 'button',
        class: classes.join(' '),
        'data-sq': name(i),
        'data-index': i,
        'aria-label': label + extra,
        'aria-pressed': o.selected === i ? 'true' : null,
      },
      content,
    );
  });
  const board = h(
    'div',
    { class: o.mini ? 'board mini' : 'board', role: o.mini ? 'img' : 'group', 'aria-label': 'Shogi board' },
    cells,
    marks(o),
  );
  if (o.mini) return board;
  if (o.onSquare) {
    const handler = o.onSquare;
    board.addEventListener('click', (event) => {
      const cell = (event.target as Element).closest<HTMLElement>('[data-index]');
      if (cell) handler(Number(cell.dataset.index), event);
    });
  }
  const files = h(
    'div',
    { class: 'files', 'aria-hidden': 'true' },
    ...[...FILES].map((f, i) => h('span', {}, o.flipped ? FILES[8 - i]! : f)),
  );
  const ranks = h(
    'div',
    { class: 'ranks', 'aria-hidden': 'true' },
    ...[...KAN].map((r, i) => h('span', {}, o.flipped ? KAN[8 - i]! : r)),
  );
  return h('div', { class: 'board-frame' }, files, h('div', { class: 'board-row' }, board, ranks));
}

/** The star points and the arrows, one SVG over the grid in cell units (9×9), not taking clicks. */
function marks(o: BoardOptions): Element {
  const dots = [
    [3, 3],
    [6, 3],
    [3, 6],
    [6, 6],
  ].map(([x, y]) => s('circle', { cx: x as number, cy: y as number, r: 0.07, class: 'hoshi' }));
  const arrows = (o.arrows ?? []).map((a) => arrow(a, o.flipped));
  return s(
    'svg',
    { class: 'board-marks', viewBox: '0 0 9 9', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
    ...dots,
    ...arrows,
  );
}

function arrow(a: Squares, flipped: boolean): Element {
  const to = displayCell(a.to, flipped);
  const x2 = to.col + 0.5;
  const y2 = to.row + 0.5;
  if (a.from === null) return s('circle', { cx: x2, cy: y2, r: 0.42, class: 'arrow drop' });
  const from = displayCell(a.from, flipped);
  const x1 = from.col + 0.5;
  const y1 = from.row + 0.5;
  const len = Math.hypot(x2 - x1, y2 - y1);
  // the line stops short of the centre so the head ends there
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const bx = x2 - ux * 0.35;
  const by = y2 - uy * 0.35;
  const head = `${x2},${y2} ${bx - uy * 0.22},${by + ux * 0.22} ${bx + uy * 0.22},${by - ux * 0.22}`;
  return s('g', { class: 'arrow' }, s('line', { x1, y1, x2: bx, y2: by }), s('polygon', { points: head }));
}

export interface HandOptions {
  readonly style: PieceStyle;
  readonly selectedType?: number | null;
  /** gote at the bottom: the pieces of the hand point the way they would on the board */
  readonly flipped?: boolean;
  /** when set, the hand's pieces are buttons (the player's own hand on their turn) */
  readonly onPick?: (type: number) => void;
}

/** One side's hand on its stand (komadai): each piece type with its count. */
export function handElement(side: 'sente' | 'gote', pieces: readonly [number, number][], o: HandOptions): HTMLElement {
  const words = pieces.map(([t, n]) => `${n} ${pieceWord(t)}${n > 1 ? 's' : ''}`).join(', ');
  const turned = (side === 'gote') !== (o.flipped ?? false);
  const items = pieces.map(([type, count]) => {
    const glyph = h('span', { class: `piece ${side}`, 'data-piece': type }, pieceSvg(type, turned, o.style));
    const badge = count > 1 ? h('span', { class: 'count' }, String(count)) : null;
    // "2 sente pawns in hand": each piece is named with its owner, the keyboard's cursor stopping on it
    const label = `${count} ${side} ${pieceWord(type)}${count > 1 ? 's' : ''} in hand`;
    if (!o.onPick)
      return h('span', { class: 'hand-piece', 'data-type': type, role: 'img', 'aria-label': label }, glyph, badge);
    const pick = o.onPick;
    return h(
      'button',
      {
        type: 'button',
        class: `hand-piece${o.selectedType === type ? ' selected' : ''}`,
        'data-hand': type,
        'data-type': type,
        'aria-label': label,
        'aria-pressed': o.selectedType === type ? 'true' : 'false',
        onclick: () => pick(type),
      },
      glyph,
      badge,
    );
  });
  return h(
    'div',
    {
      class: `hand hand-${side}`,
      role: 'group',
      'aria-label': `${side === 'sente' ? 'Sente' : 'Gote'}'s hand: ${words || 'empty'}`,
    },
    h('span', { class: 'hand-mark', 'aria-hidden': 'true' }, side === 'sente' ? '☗' : '☖'),
    items,
  );
}
