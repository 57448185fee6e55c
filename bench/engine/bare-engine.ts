/**
 * The reference for a bot's reply: the same search the engine role makes for a house-bot move
 * (engine-move.ts: the level's options set, then `go depth D movetime T`, stopped at the
 * movetime), on one UsiEngine of this process with the pool's options, over positions from
 * the scripted games. What the server adds to a reply is measured against it.
 */
import { type Level, levelOptions, searchLimitsFor } from '@shogi/engine-bots';
import { START_SFEN, sideOfSfen } from '@shogi/rules';
import { UsiEngine } from '@shogi/usi';
import { scripts } from '../e2e/scripts.js';

export interface BareEngineOptions {
  readonly path: string;
  readonly hashMb: number;
  readonly level: Level;
  /** positions searched, each once */
  readonly positions: number;
}

/** Plies into the scripted games at which a position is taken: opening to middle game. */
const PLIES = [0, 8, 16, 24, 32, 40, 48, 56];

/** Positions as the engine role gets them: the start SFEN and the moves played from it. */
function positions(count: number): string[][] {
  const games = scripts(Math.ceil(count / PLIES.length));
  const out: string[][] = [];
  for (const game of games)
    for (const ply of PLIES) if (out.length < count && ply <= game.length) out.push(game.slice(0, ply));
  return out;
}

export interface BareEngineFigures {
  /** as the engine gave it in `id name` */
  readonly engineName: string;
  /** each position's time from the options being set to `bestmove`, in ms, in the order searched */
  readonly times: readonly number[];
}

export async function bareEngineTimes(options: BareEngineOptions): Promise<BareEngineFigures> {
  const resources = { hash: options.hashMb, threads: 1 };
  const engine = await UsiEngine.start({
    path: options.path,
    options: { Hash: resources.hash, Threads: resources.threads },
  });
  try {
    const side = sideOfSfen(START_SFEN);
    const times: number[] = [];
    const all = positions(options.positions + 1);
    for (const [i, moves] of all.entries()) {
      const toMove = moves.length % 2 === 0 ? side : side === 'sente' ? 'gote' : 'sente';
      const limits = searchLimitsFor(options.level, null, toMove, { kind: 'unlimited' });
      const t0 = performance.now();
      await engine.setOptions(levelOptions(options.level, resources));
      await engine.search({
        position: { sfen: START_SFEN, moves },
        limits,
        ...(limits.kind === 'fixed' && limits.movetime !== undefined ? { timeoutMs: limits.movetime } : {}),
      });
      // the first search pays for the engine's cold start, which a running pool has behind it
      if (i > 0) times.push(performance.now() - t0);
    }
    return { engineName: engine.name ?? options.path, times };
  } finally {
    await engine.quit();
  }
}
