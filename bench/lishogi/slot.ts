/** What a game slot of either path is given. */
import type { Phase } from './phase.js';

export interface SlotContext<C> {
  readonly client: C;
  readonly phase: Phase;
  /** a game where nothing is seen this long is a stall */
  readonly stallMs: number;
  /** the moves of slot `index`'s game number `g`: the same on both paths */
  script(index: number, g: number): readonly string[];
}
