/**
 * The gateway as a Fastify plugin: shared infrastructure first (fastify-plugin, visible
 * to every route), then the routes, each in its own encapsulated plugin.
 * server.ts (or a test) creates the instance with `fastifyOptions` and registers this.
 */

import type { Server } from 'node:http';
import { hostname } from 'node:os';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import { enginePresenceKey } from '@shogi/engine-bots';
import type { EventStore } from '@shogi/game';
import { ajvFault, CLOSE_CODES, describeSchemaFault } from '@shogi/protocol';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply } from 'fastify';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import type { GatewayConfig } from './config.js';
import csa, { type CsaFrontEnd } from './csa/plugin.js';
import { ApiError } from './domain/api-error.js';
import type { HousePlayer } from './domain/auth.js';
import type { BotRegistry } from './domain/bots.js';
import type { LocalDelivery } from './domain/hub.js';
import { isLishogiPath, lishogiErrorOf } from './lishogi/errors.js';
import lishogi from './lishogi/plugin.js';
import access from './plugins/access.js';
import analysisPlugin, { presenceOf } from './plugins/analysis.js';
import auth from './plugins/auth.js';
import authedSockets from './plugins/authed-sockets.js';
import connectionMetrics from './plugins/connection-metrics.js';
import databases from './plugins/databases.js';
import docs from './plugins/docs.js';
import errors from './plugins/errors.js';
import gameChat from './plugins/game-chat.js';
import games, { type GuestPlayers } from './plugins/games.js';
import hub from './plugins/hub.js';
import jsonBody from './plugins/json-body.js';
import lobby from './plugins/lobby.js';
import positionEvalsPlugin from './plugins/position-eval.js';
import rateLimit from './plugins/rate-limit.js';
import redis from './plugins/redis.js';
import securityHeaders from './plugins/security-headers.js';
import spectators from './plugins/spectators.js';
import accounts from './routes/accounts.js';
import analysis from './routes/analysis.js';
import analysisPosition from './routes/analysis-position.js';
import bots from './routes/bots.js';
import chatRoute from './routes/chat.js';
import explorerRoutes from './routes/explorer.js';
import fairplay from './routes/fairplay.js';
import gameRoutes from './routes/games.js';
import health from './routes/health.js';
import importRoute from './routes/import.js';
import live from './routes/live.js';
import lobbyRoutes from './routes/lobby.js';
import playerProfile from './routes/player-profile.js';
import playerSocket from './routes/player-socket.js';
import players from './routes/players.js';
import records from './routes/records.js';
import stats from './routes/stats.js';
import stream from './routes/stream.js';
import watch from './routes/watch.js';
import web, { type WebOptions } from './routes/web.js';
import tournaments from './tournaments/plugin.js';

export interface AppOptions {
  readonly config: GatewayConfig;
  /** what the process adds beyond the config: bot opponents, the web client's folder */
  readonly extras?: AppExtras;
}

export interface AppExtras {
  readonly bots?: BotRegistry;
  /**
   * The event store of a worker in the same process, used instead of one of the app's own:
   * submissions and verdicts then share batched statements (fewer commits, so less PostgreSQL
   * CPU per move; bench/e2e/NOTES.md). Its owner closes it after the app.
   */
  readonly events?: EventStore;
  /** Bound to this app's hub while it runs, for a worker in the same process. */
  readonly localDelivery?: LocalDelivery;
  readonly web?: WebOptions;
  /** Given this app's guest players once they exist, for the process' own (RunningGateway.createPlayer). */
  readonly bindGuests?: (guests: GuestPlayers) => void;
  /** Given this app's CSA front end, whose listener the process opens (startGateway, or a test). */
  readonly bindCsa?: (csa: CsaFrontEnd) => void;
  /** Given this app's house players, for the process' own bots (RunningGateway.housePlayer). */
  readonly bindHousePlayers?: (housePlayer: HousePlayers) => void;
  /** Given this app's count of who looks at the lobby, for the process' seek-answering bot (RunningGateway.lobbyLookers). */
  readonly bindLobbyLookers?: (lookers: LobbyLookers) => void;
}

/** How many players other than `except` follow the seeks on a lobby socket, on any gateway (LobbyPresence.lookers). */
export type LobbyLookers = (except: readonly string[]) => Promise<number>;

/** A player every process shares under a fixed id, with a token of this process' own (AuthService.housePlayer). */
export type HousePlayers = (id: string, name: string) => Promise<HousePlayer>;

export async function app(fastify: FastifyInstance, { config, extras = {} }: AppOptions): Promise<void> {
  fastify.decorate('config', config);
  // JSON only: any other body is 415 UNSUPPORTED_MEDIA_TYPE
  fastify.removeContentTypeParser('text/plain');
  await fastify.register(jsonBody);
  await fastify.register(errors);
  await fastify.register(securityHeaders);
  await fastify.register(connectionMetrics);
  await fastify.register(docs);
  // every pool and connection: the plugins below and the routes take theirs from these
  await fastify.register(databases, { config });
  await fastify.register(redis, { config });
  await fastify.register(games, { config, ...(extras.events === undefined ? {} : { events: extras.events }) });
  extras.bindGuests?.(fastify.guests);
  await fastify.register(hub, { channelOf: fastify.games.channelOf });
  await fastify.register(analysisPlugin, { config });
  await fastify.register(positionEvalsPlugin, { config });
  const { localDelivery } = extras;
  if (localDelivery !== undefined) {
    localDelivery.bind(fastify.hub);
    fastify.addHook('preClose', async () => localDelivery.bind(null));
  }
  await fastify.register(auth, { config });
  extras.bindHousePlayers?.((id, name) =>
    fastify.auth.housePlayer(id, name, `house bot, ${hostname()} pid ${process.pid}`),
  );
  // the bots this process runs (house bots, the demo's): exempt from the limits meant for clients
  const ownBots = extras.bots;
  fastify.decorate('runsBot', (playerId: string) => ownBots?.ofPlayer(playerId) !== undefined);
  // every route registered from here on is checked against the access table first
  await fastify.register(access);
  await fastify.register(authedSockets, { config });
  await fastify.register(rateLimit, { config });
  await fastify.register(spectators, { config });
  await fastify.register(lobby, { config, ...(extras.bots === undefined ? {} : { bots: extras.bots }) });
  extras.bindLobbyLookers?.((except) => fastify.lobbyPresence.lookers(except));
  await fastify.register(gameChat, { config });
  // the CSA protocol's front end; its TCP listener opens with the HTTP server (server.ts)
  await fastify.register(csa, { config });
  extras.bindCsa?.(fastify.csa);
  // on shutdown, players are told the server is going away (1001) rather than left with 1005;
  // this hook runs before @fastify/websocket's own, which then stops the server
  fastify.addHook('preClose', async () => {
    for (const client of fastify.websocketServer?.clients ?? [])
      client.close(CLOSE_CODES.GOING_AWAY, 'server shutting down');
  });
  await fastify.register(websocket, {
    options: { maxPayload: config.wsMaxPayload },
    errorHandler: (error, socket, request) => {
      // a client's oversized or malformed frame, or its dropped connection, is the client's
      // doing (ws has already sent the close code): not an error of this server's
      const code = (error as { code?: unknown }).code;
      const clients =
        typeof code === 'string' && (code.startsWith('WS_ERR_') || code === 'ECONNRESET' || code === 'EPIPE');
      if (clients) request.log.debug({ err: error }, 'websocket: the client broke the protocol or the connection');
      else request.log.error({ err: error }, 'websocket: handler failed');
      socket.terminate();
    },
  });

  // an upgrade on a route that is not a WebSocket is refused as HTTP (@fastify/websocket would
  // accept it, then close the socket at once, telling the client nothing)
  const socketRoutes = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    if (route.websocket === true || route.wsHandler !== undefined) socketRoutes.add(route.url);
  });
  fastify.addHook('onRequest', async (request) => {
    if ((request.raw as { upgrade?: boolean }).upgrade === true && !socketRoutes.has(request.routeOptions.url ?? ''))
      throw new ApiError('NOT_FOUND', `${request.url.split('?')[0]} is not a WebSocket route`);
  });

  await fastify.register(health);
  await fastify.register(players);
  await fastify.register(accounts);
  await fastify.register(gameRoutes);
  await fastify.register(chatRoute);
  await fastify.register(analysis);
  await fastify.register(analysisPosition);
  await fastify.register(playerSocket);
  await fastify.register(watch);
  await fastify.register(stream);
  await fastify.register(live);
  await fastify.register(lobbyRoutes);
  await fastify.register(stats);
  await fastify.register(explorerRoutes);
  await fastify.register(records);
  await fastify.register(importRoute);
  await fastify.register(playerProfile);
  // before lishogi's routes: their berserk asks the tournament (tournamentBerserk)
  await fastify.register(tournaments, { config });
  await fastify.register(fairplay);
  await fastify.register(lishogi);
  if (extras.bots) {
    const presenceKey = enginePresenceKey(config.queuePrefix);
    await fastify.register(bots, {
      bots: extras.bots,
      engine: async () => presenceOf(await fastify.redis.get(presenceKey)),
    });
  }
  await fastify.register(web, extras.web ?? {});
}

declare module 'fastify' {
  interface FastifyInstance {
    config: GatewayConfig;
    /** whether this process runs the bot that plays as this player */
    runsBot(playerId: string): boolean;
  }
}

/** Root options: closed schemas are enforced (no silent stripping, no type coercion). */
export function fastifyOptions(config: GatewayConfig, logger: Logger): FastifyHttpOptions<Server, Logger> {
  return {
    loggerInstance: logger,
    bodyLimit: config.bodyLimit,
    ...requestTimeouts(config.requestTimeoutMs),
    // per-request lines would cost more than the requests at thousands per second;
    // routes log what matters with child loggers instead
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'trace' }),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false } },
    // the first mistake in words that name it (the field, what was expected)
    schemaErrorFormatter: (errors, dataVar) =>
      new Error(errors[0] === undefined ? `${dataVar} is invalid` : describeSchemaFault(ajvFault(errors[0], dataVar))),
    // errors the router raises before any handler (a malformed %-escape in the path, a
    // parameter too long) get a catalog body too, in lishogi's shape on lishogi's routes
    frameworkErrors: (error, request, reply) => {
      const refusal = new ApiError('BAD_REQUEST', error.message);
      const body = isLishogiPath(request.url) ? lishogiErrorOf(refusal).body : refusal.toBody();
      (reply as unknown as FastifyReply).code(400).send(body);
    },
  };
}

/**
 * A client that sends its request slowly (a byte every few seconds, on many connections)
 * would hold each connection for ever: Node cuts it with a 408 once `ms` has passed since the
 * request began. Node checks its connections every `connectionsCheckingInterval` (30 s by
 * default, which would let a request live up to 30 s past its limit), so the check runs every
 * quarter of the limit. Headers get the same bound, or Node's default 60 s when that is
 * shorter (Node requires headersTimeout <= requestTimeout). No idle-socket timeout (`connectionTimeout`): a quiet NDJSON stream of a
 * correspondence game is idle for hours and legitimate; ws clears the socket's timeout on upgrade.
 */
export function requestTimeouts(ms: number): Pick<FastifyHttpOptions<Server>, 'requestTimeout' | 'http'> {
  if (ms === 0) return { requestTimeout: 0 };
  return {
    requestTimeout: ms,
    http: {
      requestTimeout: ms,
      headersTimeout: Math.min(ms, 60_000),
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(ms / 4))),
    },
  };
}

/**
 * The whole app on a fresh instance, ready to listen or to take `inject()` calls. Callers get
 * the plain instance type: the schema-typed routes are the plugins' business, and an instance
 * typed with its provider and pino's logger fits no parameter typed `FastifyInstance`.
 */
export async function buildApp(
  config: GatewayConfig,
  logger: Logger,
  extras: AppExtras = {},
): Promise<FastifyInstance> {
  const fastify = Fastify(fastifyOptions(config, logger)).withTypeProvider<TypeBoxTypeProvider>();
  await fastify.register(app, { config, extras });
  await fastify.ready();
  return fastify as unknown as FastifyInstance;
}
