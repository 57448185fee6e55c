/**
 * The engine role's pool. A server without an engine still runs: the pool is null, one line
 * says how to install one, and the house bots play their built-in moves instead.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { EngineResources } from '@shogi/engine-bots';
import { EnginePool } from '@shogi/usi';
import type { Logger } from 'pino';
import type { EngineSettings } from './settings.js';

export const INSTALL_HINT = 'apt-get install fairy-stockfish';

export const resourcesOf = (settings: EngineSettings): EngineResources => ({ hash: settings.hashMb, threads: 1 });

/** The started pool, or null (logged once) when the engine is missing or fails to start. */
export async function startEnginePool(settings: EngineSettings, logger: Logger): Promise<EnginePool | null> {
  try {
    await access(settings.path, constants.X_OK);
    const resources = resourcesOf(settings);
    return await EnginePool.start({
      size: settings.workers,
      engine: { path: settings.path, options: { Hash: resources.hash, Threads: resources.threads } },
      onRestart: (slot, reason) => logger.warn({ reason: String(reason) }, `Engine ${slot} restarted`),
    });
  } catch (err) {
    const why = (err as { message?: string } | null)?.message ?? String(err);
    logger.warn(
      `No engine: ${settings.path} is not usable (${why}); the house bots play built-in moves and analysis is off. Install one with \`${INSTALL_HINT}\` or set ENGINE_PATH`,
    );
    return null;
  }
}
