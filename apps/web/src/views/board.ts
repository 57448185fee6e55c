/**
 * The board and the hands as DOM: every square a button labelled for screen readers
 * ("7g, sente pawn"), every piece a `.piece` element, the last move and a checked king
 * marked. Redrawn whole on each change: 81 buttons cost nothing.
 */
import { h } from '../dom.js';
import type { BoardState } from '../shogi/model.js';
import { type PieceStyle, pieceGlyph, pieceWord } from '../shogi/pieces.js';

export interface BoardOptions {
  readonly style: PieceStyle;
  /** gote at the bottom */
  readonly flipped: boolean;
  readonly mini?: boolean;
  readonly lastMove?: { from: number | null; to: number } | null;
  readonly selected?: number | null;
  readonly targets?: ReadonlySet<number>;
  readonly onSquare?: (index: number, event: PointerEvent | MouseEvent) => void;
}

const FILES = '987654321';
const RANKS = 'abcdefghi';
const KAN = '一二三四五六七八九';
const name = (i: number) => `${FILES[i % 9]}${RANKS[(i / 9) | 0]}`;

export function boardElement(state: BoardState, o: BoardOptions): HTMLElement {
  const order = Array.from({ length: 81 }, (_, i) => (o.flipped ? 80 - i : i));
  const cells = order.map((i) => {
    const piece = state.squares[i] ?? null;
    const side = piece ? (piece.gote ? 'gote' : 'sente') : '';
    const label = piece ? `${name(i)}, ${side} ${pieceWord(piece.type)}` : `${name(i)}, empty`;
    const classes = ['sq'];
    if (o.lastMove && (o.lastMove.to === i || o.lastMove.from === i)) classes.push('last');
    if (state.checkedKing === i) classes.push('check');
    if (o.selected === i) classes.push('selected');
    if (o.targets?.has(i)) classes.push('target');
    const content = piece
      ? h(
          'span',
          { class: `piece ${side}${piece.gote !== o.flipped ? ' turned' : ''}`, 'data-piece': piece.type },
          pieceGlyph(piece.type, piece.gote, o.style),
        )
      : null;
    if (o.mini) return h('div', { class: classes.join(' ') }, content);
    return h(
      'button',
      {
        type: 'button',
        class: classes.join(' '),
        'data-sq': name(i),
        'data-index': i,
        'aria-label': label + (o.targets?.has(i) ? ', legal target' : ''),
        'aria-pressed': o.selected === i ? 'true' : null,
      },
      content,
    );
  });
  const board = h(
    'div',
    { class: o.mini ? 'board mini' : 'board', role: o.mini ? 'img' : 'group', 'aria-label': 'Shogi board' },
    cells,
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

export interface HandOptions {
  readonly style: PieceStyle;
  readonly selectedType?: number | null;
  /** when set, the hand's pieces are buttons (the player's own hand on their turn) */
  readonly onPick?: (type: number) => void;
}

/** One side's hand: each piece type with its count. */
export function handElement(side: 'sente' | 'gote', pieces: readonly [number, number][], o: HandOptions): HTMLElement {
  const words = pieces.map(([t, n]) => `${n} ${pieceWord(t)}${n > 1 ? 's' : ''}`).join(', ');
  const items = pieces.map(([type, count]) => {
    const glyph = h('span', { class: `piece ${side}`, 'data-piece': type }, pieceGlyph(type, false, o.style));
    const badge = count > 1 ? h('span', { class: 'count' }, String(count)) : null;
    if (!o.onPick) return h('span', { class: 'hand-piece' }, glyph, badge);
    const pick = o.onPick;
    return h(
      'button',
      {
        type: 'button',
        class: `hand-piece${o.selectedType === type ? ' selected' : ''}`,
        'data-hand': type,
        'aria-label': `drop ${pieceWord(type)} (${count} in hand)`,
        'aria-pressed': o.selectedType === type ? 'true' : 'false',
        onclick: () => pick(type),
      },
      glyph,
      badge,
    );
  });
  return h(
    'div',
    { class: `hand hand-${side}`, 'aria-label': `${side === 'sente' ? 'Sente' : 'Gote'}'s hand: ${words || 'empty'}` },
    h('span', { class: 'hand-mark', 'aria-hidden': 'true' }, side === 'sente' ? '☗' : '☖'),
    items.length > 0 ? items : h('span', { class: 'hand-empty' }, '—'),
  );
}
