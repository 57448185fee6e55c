/** The game aggregate as an Emmett-style Decider: `decide`, `evolve`, `initialState`. */
import type { GameCommand } from './commands.js';
import { type Decision, decide } from './decide.js';
import type { GameEvent } from './events.js';
import { evolve } from './evolve.js';
import { type GameState, initialState } from './state.js';

export interface Decider<State, Command, Event, Outcome> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Outcome;
}

export type GameDecider = Decider<GameState, GameCommand, GameEvent, Decision>;

export const gameDecider: GameDecider = { initialState, evolve, decide };
