/**
 * The keyboard's cursor over the board and the two stands: the square or hand piece it is on,
 * where an arrow key takes it, and what a key asks of it. Not cursor.ts, which says which
 * position of the game the page shows. Pure: the DOM wiring (views/board-keys.ts) reads the
 * orientation, the pieces on each stand and how the stands are laid out, and asks these.
 *
 * The arrows follow the board as it is drawn (flipped for gote), and the stands are on the
 * cursor's path where they are drawn: beside the board on a wide screen (the opponent's at
 * the top left, the player's at the bottom right, each a column of pieces), above and below it
 * on a phone (each a row). Past the board's edge on a stand's side the cursor steps onto that
 * stand's piece level with where it left the board, and back the same way.
 */

/** The stand drawn at the top (the opponent's, or gote's for a spectator) or at the bottom. */
export type Stand = 'top' | 'bottom';

/** A board square (the client's index: row 0 is rank a, col 0 is file 9) or a hand piece, by its slot on the stand. */
export type Place = { readonly square: number } | { readonly stand: Stand; readonly slot: number };

export const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** beside: each stand a column at the board's side (a wide screen); stacked: a row above or below it (a phone) */
export type StandLayout = 'beside' | 'stacked';

/** What the cursor's moves depend on, as the page draws it. */
export interface CursorFrame {
  /** gote at the bottom */
  readonly flipped: boolean;
  readonly layout: StandLayout;
  /** the pieces (kinds) shown on each stand */
  readonly top: number;
  readonly bottom: number;
}

/** What a key asks of the cursor: a step, or to press the place it is on (pick, move, drop). */
export type KeyAction = { readonly move: Direction } | { readonly press: true };

/** Where the cursor starts until the user moves it: on the last move's square, else in the middle (5e). */
export const cursorStart = (lastMove: { readonly to: number } | null): number => lastMove?.to ?? 40;

const ARROWS: Readonly<Record<string, Direction>> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
};

/** The action of a key pressed on the board or a stand; null leaves the key to the page (Home, End, f, Escape, Tab). */
export function keyAction(
  key: string,
  mods: { readonly altKey: boolean; readonly ctrlKey: boolean; readonly metaKey: boolean; readonly shiftKey: boolean },
): KeyAction | null {
  if (mods.altKey || mods.ctrlKey || mods.metaKey || mods.shiftKey) return null;
  const direction = ARROWS[key];
  if (direction) return { move: direction };
  if (key === 'Enter' || key === ' ') return { press: true };
  return null;
}

const STEPS: Readonly<Record<Direction, readonly [number, number]>> = {
  up: [-1, 0],
  down: [1, 0],
  left: [0, -1],
  right: [0, 1],
};

/** The way from each stand onto the board, in each layout. */
const TOWARD_BOARD: Readonly<Record<StandLayout, Readonly<Record<Stand, Direction>>>> = {
  beside: { top: 'right', bottom: 'left' },
  stacked: { top: 'down', bottom: 'up' },
};

/** The stand past each edge of the board, in each layout. */
const OFF_THE_BOARD: Readonly<Record<StandLayout, Partial<Record<Direction, Stand>>>> = {
  beside: { left: 'top', right: 'bottom' },
  stacked: { up: 'top', down: 'bottom' },
};

const pieces = (f: CursorFrame, stand: Stand): number => (stand === 'top' ? f.top : f.bottom);

/** The square drawn at `row`, `col` (from the top left), given the orientation. */
function squareAt(row: number, col: number, flipped: boolean): Place {
  const shown = row * 9 + col;
  return { square: flipped ? 80 - shown : shown };
}

/** Where a square is drawn, in cells from the top left. */
function drawnAt(index: number, flipped: boolean): { row: number; col: number } {
  const shown = flipped ? 80 - index : index;
  return { row: (shown / 9) | 0, col: shown % 9 };
}

/**
 * The square next to a stand's slot, where the cursor lands coming off it. Beside the board the
 * top stand's pieces hang from the top rank down and the bottom stand's stand on the bottom
 * rank; above and below it each piece is over (or under) a file, from the left.
 */
function squareBeside(stand: Stand, slot: number, f: CursorFrame): Place {
  if (f.layout === 'stacked') return squareAt(stand === 'top' ? 0 : 8, Math.min(slot, 8), f.flipped);
  if (stand === 'top') return squareAt(Math.min(slot, 8), 0, f.flipped);
  const below = Math.max(0, pieces(f, 'bottom') - 1 - slot);
  return squareAt(Math.max(0, 8 - below), 8, f.flipped);
}

/** The slot level with the square drawn at `row`, `col`, on a stand holding `n` pieces. */
function slotBeside(stand: Stand, row: number, col: number, n: number, layout: StandLayout): number {
  if (layout === 'stacked') return Math.min(col, n - 1);
  if (stand === 'top') return Math.min(row, n - 1);
  return Math.max(0, n - 1 - (8 - row));
}

/** The place itself, or the nearest one that is still there (a stand emptied, a piece kind gone from it). */
export function clampPlace(at: Place, f: CursorFrame): Place {
  if ('square' in at) return at.square >= 0 && at.square < 81 ? at : { square: Math.max(0, Math.min(80, at.square)) };
  const n = pieces(f, at.stand);
  if (n === 0) return squareBeside(at.stand, Math.max(0, at.slot), f);
  return at.slot >= 0 && at.slot < n ? at : { stand: at.stand, slot: Math.max(0, Math.min(n - 1, at.slot)) };
}

/** Where an arrow key takes the cursor; it stays put at an edge with nothing beyond it. */
export function moveCursor(from: Place, direction: Direction, f: CursorFrame): Place {
  const at = clampPlace(from, f);
  if ('square' in at) return fromSquare(at.square, direction, f);
  return fromStand(at.stand, at.slot, direction, f);
}

function fromSquare(index: number, direction: Direction, f: CursorFrame): Place {
  const { row, col } = drawnAt(index, f.flipped);
  const [dr, dc] = STEPS[direction];
  const r = row + dr;
  const c = col + dc;
  if (r >= 0 && r < 9 && c >= 0 && c < 9) return squareAt(r, c, f.flipped);
  // off the board: onto the stand drawn on that side, if it holds a piece
  const stand = OFF_THE_BOARD[f.layout][direction];
  const n = stand ? pieces(f, stand) : 0;
  if (!stand || n === 0) return { square: index };
  return { stand, slot: slotBeside(stand, row, col, n, f.layout) };
}

function fromStand(stand: Stand, slot: number, direction: Direction, f: CursorFrame): Place {
  const n = pieces(f, stand);
  // along the stand: down a column beside the board, across a row above or below it
  const [back, forth]: [Direction, Direction] = f.layout === 'beside' ? ['up', 'down'] : ['left', 'right'];
  if (direction === back) return { stand, slot: Math.max(0, slot - 1) };
  if (direction === forth) return { stand, slot: Math.min(n - 1, slot + 1) };
  if (direction === TOWARD_BOARD[f.layout][stand]) return squareBeside(stand, slot, f);
  return { stand, slot };
}

export const samePlace = (a: Place, b: Place): boolean =>
  'square' in a ? 'square' in b && a.square === b.square : 'stand' in b && a.stand === b.stand && a.slot === b.slot;
