/**
 * The gateway process: builds the logger, listens, and closes with grace on SIGTERM /
 * SIGINT (stop accepting, finish in-flight requests, close sockets and pools).
 */
import type { CreatePlayerResponse } from '@shogi/protocol';
import type { Logger } from 'pino';
import { type AppExtras, buildApp, type HousePlayers, type LobbyLookers } from './app.js';
import { type GatewayConfig, loadConfig } from './config.js';
import type { CsaFrontEnd } from './csa/plugin.js';
import type { HousePlayer } from './domain/auth.js';
import { createLogger } from './logger.js';
import type { GuestPlayers } from './plugins/games.js';

export interface RunningGateway {
  readonly url: string;
  /** the CSA protocol's port (docs/csa.md); null when CSA_PORT is 0 */
  readonly csaPort: number | null;
  /**
   * A guest player made in this process (the launcher's bots): the name rule applies, the
   * per-IP guest limit does not, since over HTTP the bots would share the launcher's host
   * address with its visitors, and a few restarts would use up the limit.
   */
  createPlayer(name: string): Promise<CreatePlayerResponse>;
  /**
   * The player every process shares under this fixed id (the house bots), made the first
   * time, with a token of this process' own; `release` it before the process stops.
   */
  housePlayer(id: string, name: string): Promise<HousePlayer>;
  /** how many players other than `except` follow the seeks on a lobby socket, on any gateway (the bots this process runs never count) */
  lobbyLookers(except: readonly string[]): Promise<number>;
  close(): Promise<void>;
}

export async function startGateway(
  config: GatewayConfig,
  logger: Logger,
  extras: AppExtras = {},
): Promise<RunningGateway> {
  let guests: GuestPlayers | null = null;
  let csa: CsaFrontEnd | null = null;
  let housePlayers: HousePlayers | null = null;
  let lobbyLookers: LobbyLookers | null = null;
  const app = await buildApp(config, logger, {
    ...extras,
    bindLobbyLookers: (bound) => {
      lobbyLookers = bound;
      extras.bindLobbyLookers?.(bound);
    },
    bindGuests: (bound) => {
      guests = bound;
      extras.bindGuests?.(bound);
    },
    bindCsa: (bound) => {
      csa = bound;
      extras.bindCsa?.(bound);
    },
    bindHousePlayers: (bound) => {
      housePlayers = bound;
      extras.bindHousePlayers?.(bound);
    },
  });
  const address = await app.listen({ host: config.host, port: config.port });
  let csaPort: number | null = null;
  try {
    if (config.csaListen) csaPort = (await (csa as CsaFrontEnd | null)?.listen(config.host, config.csaPort)) ?? null;
  } catch (err) {
    await app.close();
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    url: address,
    csaPort,
    createPlayer: (name) => (guests as GuestPlayers).create(name),
    housePlayer: (id, name) => (housePlayers as HousePlayers)(id, name),
    lobbyLookers: (except) => (lobbyLookers as LobbyLookers)(except),
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
