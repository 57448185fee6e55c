/**
 * The gateway process: builds the logger, listens, and closes with grace on SIGTERM /
 * SIGINT (stop accepting, finish in-flight requests, close sockets and pools).
 */
import type { Logger } from 'pino';
import { type AppExtras, buildApp } from './app.js';
import { type GatewayConfig, loadConfig } from './config.js';
import { createLogger } from './logger.js';

export interface RunningGateway {
  readonly url: string;
  close(): Promise<void>;
}

export async function startGateway(
  config: GatewayConfig,
  logger: Logger,
  extras: AppExtras = {},
): Promise<RunningGateway> {
  const app = await buildApp(config, logger, extras);
  const address = await app.listen({ host: config.host, port: config.port });
  let closing: Promise<void> | null = null;
  return {
    url: address,
    close() {
      closing ??= (async () => {
        const timer = setTimeout(() => {
          logger.warn('gateway: grace period over, closing connections');
          app.server.closeAllConnections();
        }, config.closeGraceMs);
        timer.unref();
        await app.close();
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}

/** `node apps/gateway/dist/server.js`: the gateway alone. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: 'gateway' });
  const gateway = await startGateway(config, logger);
  const stop = (signal: string) => {
    logger.info({ signal }, 'gateway: shutting down');
    gateway.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'gateway: shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
