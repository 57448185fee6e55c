/** The engine role's settings, from the environment (read by the launcher's options.ts only). */
import { availableParallelism } from 'node:os';

export interface EngineSettings {
  /** the USI engine binary */
  readonly path: string;
  /** engines run at once, each with one thread */
  readonly workers: number;
  /** each engine's transposition table */
  readonly hashMb: number;
  /** the depth every position of an analysis is searched to */
  readonly analysisDepth: number;
  /** the depth fair play screens a rated game's positions to (SCREENING_DEPTH; default DEFAULT_SCREENING_DEPTH) */
  readonly screeningDepth?: number;
  /** between sweeps for rated games to screen (SCREENING_SWEEP_MS); absent or 0: no sweep, games are screened when queued */
  readonly screeningSweepMs?: number;
}

export const DEFAULT_ENGINE_PATH = '/usr/games/fairy-stockfish';
export const DEFAULT_ENGINE_HASH_MB = 16;
export const DEFAULT_ANALYSIS_DEPTH = 12;
/** Shallower than an analysis: screening runs over many games, and an engine's best moves agree with it even so. */
export const DEFAULT_SCREENING_DEPTH = 10;
export const DEFAULT_SCREENING_SWEEP_MS = 60_000;

const nonNegativeInteger = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isSafeInteger(n) && n >= 0 ? n : fallback;
};

/** One core is left to the gateway and worker of this process, which time the bots' clocks. */
export const defaultEngineWorkers = (cpus: number): number => Math.max(1, cpus - 1);

const positiveInteger = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isSafeInteger(n) && n > 0 ? n : fallback;
};

export function engineSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  cpus: number = availableParallelism(),
): EngineSettings {
  return {
    path: env.ENGINE_PATH || DEFAULT_ENGINE_PATH,
    workers: positiveInteger(env.ENGINE_WORKERS, defaultEngineWorkers(cpus)),
    hashMb: positiveInteger(env.ENGINE_HASH_MB, DEFAULT_ENGINE_HASH_MB),
    analysisDepth: Math.min(positiveInteger(env.ANALYSIS_DEPTH, DEFAULT_ANALYSIS_DEPTH), 64),
    screeningDepth: Math.min(positiveInteger(env.SCREENING_DEPTH, DEFAULT_SCREENING_DEPTH), 64),
    screeningSweepMs: nonNegativeInteger(env.SCREENING_SWEEP_MS, DEFAULT_SCREENING_SWEEP_MS),
  };
}
