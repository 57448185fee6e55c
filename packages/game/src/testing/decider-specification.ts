/** Given/When/Then for the game decider, with no store (after Emmett's DeciderSpecification). */
import { expect } from 'vitest';
import type { GameCommand } from '../commands.js';
import { type Decision, decide } from '../decide.js';
import type { GameEvent } from '../events.js';
import { fold } from '../evolve.js';
import type { RejectionCode } from '../rejections.js';
import { type GameState, initialState } from '../state.js';

export interface Then {
  /** The command yields exactly these events. */
  then(expected: readonly GameEvent[]): GameState;
  /** The command is rejected with this code. */
  thenRejects(code: RejectionCode): void;
  /** The raw decision, for custom assertions. */
  decision: Decision;
}

export const given = (events: readonly GameEvent[]) => ({
  when(command: GameCommand): Then {
    const state = fold(events, initialState());
    const decision = decide(command, state);
    return {
      decision,
      // biome-ignore lint/suspicious/noThenProperty: the Given/When/Then vocabulary; this object is never awaited
      then(expected) {
        expect(decision).toEqual({ ok: true, events: expected });
        return fold(expected, state);
      },
      thenRejects(code) {
        expect(decision.ok ? 'accepted' : decision.rejection.code).toBe(code);
      },
    };
  },
});
