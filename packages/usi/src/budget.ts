/** How long a search may take by its limits: the basis of the deadline after which the engine is stopped. */
import type { PositionSpec, SearchLimits } from './commands.js';
import type { EngineTimeouts, SearchRequest } from './engine-config.js';
import { UsiError } from './errors.js';

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

/**
 * When the engine is told to stop, in ms after `go`: the request's own timeout, else the
 * budget plus the margin, else (depth or nodes only) the unbounded-search deadline.
 * Null for an infinite search: only the caller's signal ends it.
 */
export function searchDeadlineMs(request: SearchRequest, timeouts: EngineTimeouts): number | null {
  if (request.timeoutMs !== undefined) {
    if (!Number.isSafeInteger(request.timeoutMs) || request.timeoutMs < 1)
      throw new UsiError('bad_command', 'timeoutMs is a whole number of ms, at least 1');
    return request.timeoutMs;
  }
  const budget = searchBudgetMs(request.limits, sideToMove(request.position));
  if (budget !== null) return budget + timeouts.marginMs;
  return request.limits.kind === 'infinite' ? null : timeouts.unboundedSearchMs;
}
