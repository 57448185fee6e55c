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
}

export const DEFAULT_ENGINE_PATH = '/usr/games/fairy-stockfish';
export const DEFAULT_ENGINE_HASH_MB = 16;
export const DEFAULT_ANALYSIS_DEPTH = 12;

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
  };
}
