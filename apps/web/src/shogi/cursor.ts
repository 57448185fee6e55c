/**
 * Which position the game page shows. Following the game ("live"), the board is the latest
 * position and moves on as moves arrive; stepped back, it stays where the user put it, and
 * the moves that arrive meanwhile are counted, so the page can say the game has moved on
 * instead of yanking the view. Pure: the latest ply is always an argument.
 */
export interface Cursor {
  /** the ply shown; null follows the latest */
  readonly ply: number | null;
  /** the latest ply when the user stepped away from live: moves after it are news */
  readonly leftAt: number;
}

export const LIVE: Cursor = { ply: null, leftAt: 0 };

export type Step = 'first' | 'back' | 'forward' | 'last';

export const isLive = (c: Cursor): boolean => c.ply === null;

/** The ply the board shows (0 is the initial position). */
export const shownPly = (c: Cursor, latest: number): number =>
  c.ply === null ? latest : Math.max(0, Math.min(c.ply, latest));

/** Shows `target` (clamped); reaching the latest ply follows the game again. */
export function goTo(c: Cursor, target: number, latest: number): Cursor {
  const ply = Math.max(0, Math.min(target, latest));
  if (ply === latest) return LIVE;
  return { ply, leftAt: c.ply === null ? latest : Math.min(c.leftAt, latest) };
}

export function step(c: Cursor, s: Step, latest: number): Cursor {
  const here = shownPly(c, latest);
  switch (s) {
    case 'first':
      return goTo(c, 0, latest);
    case 'back':
      return goTo(c, here - 1, latest);
    case 'forward':
      return goTo(c, here + 1, latest);
    case 'last':
      return LIVE;
  }
}

/** Moves played since the user stepped away from live (0 when following). */
export const movesSinceLeft = (c: Cursor, latest: number): number =>
  c.ply === null ? 0 : Math.max(0, latest - c.leftAt);

/** The step a key asks for: ←/→ one move, Home/End the start and the live position. */
export function stepForKey(key: string): Step | null {
  switch (key) {
    case 'ArrowLeft':
      return 'back';
    case 'ArrowRight':
      return 'forward';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    default:
      return null;
  }
}
