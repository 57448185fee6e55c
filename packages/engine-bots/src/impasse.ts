/**
 * When a bot declares impasse (jishogi, the 27-point rule): exactly when the rules grant the
 * declaration to the side to move. A valid declaration wins at once, so a bot never plays on
 * past one; an invalid one loses, so it is never made on a hunch — the engine's own
 * `bestmove win` is only a hint, and packages/usi's checkBestmove judges it the same way.
 */
import { assessImpasse, type Position } from '@shogi/rules';

/** Whether the side to move in `position` should declare impasse now. */
export function shouldDeclareImpasse(position: Position): boolean {
  return assessImpasse(position).valid;
}
