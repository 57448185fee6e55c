/** How an engine is started and how long it is given for each answer. */
import type { OptionValue, PositionSpec, SearchLimits } from './commands.js';

export interface EngineTimeouts {
  /** From `usi` to `usiok`. */
  readonly handshakeMs: number;
  /** From `isready` to `readyok` (a large hash takes a while to clear). */
  readonly readyMs: number;
  /** Added to the time a search's limits allow before the engine is told to stop. */
  readonly marginMs: number;
  /** After `stop`, how long the engine has to answer before it is killed as hung. */
  readonly stopGraceMs: number;
  /** After `quit`, how long the engine has to exit before it is killed. */
  readonly quitGraceMs: number;
  /** The deadline of searches whose limits bound no time (depth or nodes only). */
  readonly unboundedSearchMs: number;
}

export const DEFAULT_TIMEOUTS: EngineTimeouts = {
  handshakeMs: 10_000,
  readyMs: 30_000,
  marginMs: 1_000,
  stopGraceMs: 1_000,
  quitGraceMs: 1_000,
  unboundedSearchMs: 60_000,
};

/** Far above any line a real engine writes (a long PV, an option with many values). */
export const DEFAULT_MAX_LINE_LENGTH = 64 * 1024;

export interface EngineConfig {
  readonly path: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Set after the handshake; each is checked against the options the engine lists. */
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly timeouts?: Partial<EngineTimeouts>;
  readonly maxLineLength?: number;
  /** Sees every line written to (`out`) and read from (`in`) the engine: for debug logs. */
  readonly onLine?: (direction: 'in' | 'out', line: string) => void;
}

export interface SearchRequest {
  readonly position: PositionSpec;
  readonly limits: SearchLimits;
  /** When to send `stop`, in ms, instead of the deadline the limits imply (no margin added). */
  readonly timeoutMs?: number;
}

const isPositiveInteger = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;

/** What is wrong with a configuration, or null: checked before anything is spawned. */
export function engineConfigProblem(config: EngineConfig): string | null {
  if (typeof config?.path !== 'string' || config.path === '') return 'path names the engine binary';
  if (config.args !== undefined && (!Array.isArray(config.args) || config.args.some((a) => typeof a !== 'string')))
    return 'args is a list of strings';
  if (config.maxLineLength !== undefined && !isPositiveInteger(config.maxLineLength))
    return 'maxLineLength is a positive integer';
  for (const [key, ms] of Object.entries(config.timeouts ?? {}))
    if (!isPositiveInteger(ms)) return `timeouts.${key} is a positive whole number of ms`;
  return null;
}
