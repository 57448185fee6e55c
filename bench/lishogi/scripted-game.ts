/**
 * One game of a scripted pair, whatever the path: each side moves as soon as its own view
 * (a lishogi game stream, a player socket) shows that it is its turn, and each move is timed
 * from its sending to the opponent's view showing it. The moves are a demo-brain game
 * (bench/e2e/scripts.ts), the same on both paths; past the script's end, or once the phase is
 * over, the side to move resigns. A game where nothing is seen for `stallMs` is a stall: both
 * sides resign and the game is left.
 */
import { performance } from 'node:perf_hooks';
import type { Phase } from './phase.js';

/** 0: sente, 1: gote; sente moves at even plies. */
export type Side = 0 | 1;

export interface Transport {
  /** sends the move; its failure comes back through `ScriptedGame.fail` */
  move(side: Side, ply: number, usi: string, sentAt: number): void;
  resign(side: Side): void;
  /** leaves the game's streams or sockets */
  close(): void;
}

export class ScriptedGame {
  readonly done: Promise<void>;
  #finish!: () => void;
  readonly #sentAt: Float64Array;
  /** the last ply each side acted at (a view showing it again does nothing) */
  readonly #acted = [-1, -1];
  readonly #ended = [false, false];
  #resigned = false;
  #finished = false;
  #lastSeen = performance.now();
  readonly #watchdog: NodeJS.Timeout;

  readonly #script: readonly string[];
  readonly #phase: Phase;
  readonly #transport: Transport;
  /** each side's name in the figures (the mover's API) */
  readonly #names: readonly [string, string];

  constructor(
    script: readonly string[],
    phase: Phase,
    transport: Transport,
    names: readonly [string, string],
    stallMs: number,
  ) {
    this.#script = script;
    this.#phase = phase;
    this.#transport = transport;
    this.#names = names;
    this.#sentAt = new Float64Array(script.length);
    this.done = new Promise((resolve) => {
      this.#finish = resolve;
    });
    this.#watchdog = setInterval(() => {
      if (performance.now() - this.#lastSeen > stallMs)
        this.fail('stall', `nothing seen for ${stallMs} ms after ply ${Math.max(...this.#acted)}`);
    }, 1000);
    this.#watchdog.unref();
  }

  /** Both views are open: sente moves first. */
  start(): void {
    this.#act(0, 0);
  }

  /** `side`'s view shows `plies` accepted moves, and with `over` the game ended by the last of them. */
  seen(side: Side, plies: number, over: boolean): void {
    const at = performance.now();
    this.#lastSeen = at;
    const mover = (plies - 1) % 2;
    if (plies > 0 && mover !== side)
      this.#phase.seen(this.#names[mover] as string, this.#sentAt[plies - 1] as number, at);
    if (!over && plies % 2 === side) this.#act(side, plies);
  }

  /** `side`'s view shows the game over (its stream ended, GameEnded on its socket). */
  ended(side: Side): void {
    this.#lastSeen = performance.now();
    this.#ended[side] = true;
    if (this.#ended[0] && this.#ended[1]) this.#end();
  }

  /** Something went wrong: counted, both sides resign, and the game is left. */
  fail(kind: string, detail: string): void {
    if (this.#finished) return;
    this.#phase.problem(kind, detail);
    if (!this.#resigned) {
      this.#resigned = true;
      this.#transport.resign(0);
      this.#transport.resign(1);
    }
    this.#end();
  }

  #act(side: Side, ply: number): void {
    if (this.#finished || ply <= (this.#acted[side] as number)) return;
    this.#acted[side] = ply;
    if (ply >= this.#script.length || this.#phase.over) {
      if (!this.#resigned) {
        this.#resigned = true;
        this.#transport.resign(side);
      }
      return;
    }
    const sentAt = performance.now();
    this.#sentAt[ply] = sentAt;
    this.#transport.move(side, ply, this.#script[ply] as string, sentAt);
  }

  #end(): void {
    if (this.#finished) return;
    this.#finished = true;
    clearInterval(this.#watchdog);
    this.#transport.close();
    this.#finish();
  }
}
