/**
 * The house bots' levels 1–8: how strong Fairy-Stockfish plays at each, by its `Skill Level`
 * (−20…20, 20 is full strength), a depth limit and a cap on the time per move. The values
 * are lichess's AI levels (fishnet's table), which lishogi's Fairy-Stockfish levels share at
 * the bottom of the scale: the README compares the two.
 */
import type { OptionValue } from '@shogi/usi';

export const LEVEL_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export type Level = (typeof LEVEL_NUMBERS)[number];

export interface LevelSpec {
  /** Fairy-Stockfish's `Skill Level`: below 20 the engine picks, on purpose, among weaker moves. */
  readonly skill: number;
  /** The search never goes deeper, whatever the clock allows. */
  readonly depth: number;
  /** The most a move may take, in ms, however much time is on the clock. */
  readonly movetimeMs: number;
  readonly description: string;
}

export const LEVELS: Readonly<Record<Level, LevelSpec>> = {
  1: { skill: -9, depth: 5, movetimeMs: 50, description: 'beginner' },
  2: { skill: -5, depth: 5, movetimeMs: 100, description: 'novice' },
  3: { skill: -1, depth: 5, movetimeMs: 150, description: 'casual player' },
  4: { skill: 3, depth: 5, movetimeMs: 200, description: 'improving player' },
  5: { skill: 7, depth: 5, movetimeMs: 300, description: 'club player' },
  6: { skill: 11, depth: 8, movetimeMs: 400, description: 'strong club player' },
  7: { skill: 16, depth: 13, movetimeMs: 500, description: 'expert' },
  8: { skill: 20, depth: 22, movetimeMs: 1000, description: 'full strength within its depth and time' },
};

export const isLevel = (n: unknown): n is Level =>
  typeof n === 'number' && (LEVEL_NUMBERS as readonly number[]).includes(n);

/** What the host gives every engine it runs, whatever the task. */
export interface EngineResources {
  /** Transposition table, in MB. */
  readonly hash: number;
  readonly threads: number;
}

/**
 * The options to set before a bot's move at `level`. MultiPV is reset because pooled engines
 * also serve analysis, and an option once set stays set on the engine process.
 */
export function levelOptions(level: Level, resources: EngineResources): Record<string, OptionValue> {
  return {
    'Skill Level': LEVELS[level].skill,
    MultiPV: 1,
    Hash: resources.hash,
    Threads: resources.threads,
  };
}

/** The options for analysis: full strength, one line (the judgments need only the best). */
export function analysisOptions(resources: EngineResources): Record<string, OptionValue> {
  return { 'Skill Level': 20, MultiPV: 1, Hash: resources.hash, Threads: resources.threads };
}

/** The options for a position evaluated on request: full strength, as many lines as asked. */
export function positionOptions(resources: EngineResources, multiPv: number): Record<string, OptionValue> {
  return { 'Skill Level': 20, MultiPV: multiPv, Hash: resources.hash, Threads: resources.threads };
}
