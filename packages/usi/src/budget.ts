/** How long a search may take by its limits: the basis of the deadline after which the engine is stopped. */
import type { PositionSpec, SearchLimits } from './commands.js';

export type Side = 'b' | 'w';

/** The side to move after the position's moves (sente for `startpos`). */
export function sideToMove(position: PositionSpec): Side {
  const start: Side = position.sfen?.split(' ')[1] === 'w' ? 'w' : 'b';
  const odd = (position.moves?.length ?? 0) % 2 === 1;
  return odd === (start === 'b') ? 'w' : 'b';
}

/**
 * The most the search may take by its own limits, in ms: the mover's main time plus its
 * byoyomi and increment, or the movetime. Null when the limits bound no time (depth or
 * nodes only, or infinite).
 */
export function searchBudgetMs(limits: SearchLimits, side: Side): number | null {
  switch (limits.kind) {
    case 'clock': {
      const main = side === 'b' ? limits.btime : limits.wtime;
      const inc = (side === 'b' ? limits.binc : limits.winc) ?? 0;
      return main + (limits.byoyomi ?? 0) + inc;
    }
    case 'fixed':
      return limits.movetime ?? null;
    default:
      return null;
  }
}
