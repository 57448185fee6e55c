/**
 * The CSA front end in the gateway: its sessions, its shared state in Redis, this gateway's
 * channel (what other gateways tell its sessions), and the TCP listener, which the process
 * opens beside the HTTP server (`startGateway`, server.ts) when CSA_PORT is not 0. Every game
 * it starts is created through the lobby's start path and the game service, and every command
 * goes through the game service: a CSA game is an ordinary game.
 */
import { randomUUID } from 'node:crypto';
import { createPgTournamentEventStore, lobbyRating } from '@shogi/store';
import { TournamentCommandHandler } from '@shogi/tournament';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { hashToken } from '../domain/auth.js';
import { AddressSlots } from '../domain/connection-caps.js';
import { lobbyStore } from '../plugins/lobby-store.js';
import { agreedGameStarter } from './agreed-game.js';
import { type Floodgate, startFloodgate } from './floodgate.js';
import { recordFloodgateGame } from './floodgate-tournament.js';
import { CsaListener } from './listener.js';
import type { LoginDeps } from './login.js';
import { createPairingStore, type Envelope, type PairingStore, PRESENCE_RENEW_MS } from './pairing-store.js';
import { rejectProposal, type StartGame } from './proposals.js';
import { CsaSession, type SessionContext } from './session.js';
import type { X1Context } from './x1-commands.js';

export interface CsaFrontEnd {
  /** Opens the TCP listener; resolves with its port (the one the OS gave for port 0). */
  listen(host: string, port: number): Promise<number>;
  /** The port listened on; null before `listen`. */
  readonly port: number | null;
  /** open connections on this gateway */
  readonly sessions: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    csa: CsaFrontEnd;
  }
}

/** What %%VERSION answers. */
const VERSION = 'CSA server protocol 1.2.1 with the x1 extension';
/** Games %%LIST shows at most. */
const LIST_LIMIT = 200;

/** Unsent bytes after which a CSA client counts as not reading what it is sent. */
const MAX_BUFFERED = 1 << 20;
/** A connection that has not sent its LOGIN by then is closed, ms. */
const FIRST_LINE_MS = 30_000;

/**
 * A CSA client as the rate limits see a request: its address (a TCP line has no token header),
 * and no route of its own (@fastify/rate-limit reads the route's config).
 */
const requestOf = (ip: string) =>
  ({ ip, headers: {}, principal: null, routeOptions: { config: {} } }) as unknown as FastifyRequest;

export default fp<{ config: GatewayConfig }>(
  async (app: FastifyInstance, { config }) => {
    const gatewayId = randomUUID();
    const pairing = createPairingStore(app.redis, config.channelPrefix);
    const sessions = new Map<string, CsaSession>();
    const log = app.log.child({ component: 'csa' });

    const loginDeps: LoginDeps = {
      async createGuest(name, ip) {
        await app.consumeLimit('guests', requestOf(ip));
        return app.guests.create(name);
      },
      principalOf: (token) => app.auth.byHash(hashToken(token)),
      mayBeValid: (token) => app.authFailures.mayBeValid(hashToken(token)),
      blockedFor: (ip, name) => app.authFailures.blockedFor(ip, name),
      failed: (ip, name) => app.authFailures.count(ip, name),
    };

    const startAgreed = agreedGameStarter({
      lobby: lobbyStore(app.databases.lobby),
      games: app.games,
      ratedGamesPerPair: config.ratedGamesPerPairPerDay,
    });
    // a Floodgate round's game is recorded in its day's tournament once started
    const floodgateTournaments = new TournamentCommandHandler({
      store: createPgTournamentEventStore(app.databases.lobby),
    });
    const startGame: StartGame = async (proposal) => {
      const started = await startAgreed(proposal);
      const { round } = proposal;
      if (round !== undefined)
        await recordFloodgateGame(floodgateTournaments, { ...proposal, round }, Date.now()).catch((err: unknown) =>
          log.warn({ err, gameId: proposal.gameId }, 'csa: the Floodgate game was not recorded in its tournament'),
        );
      return started;
    };

    const x1: X1Context = {
      presence: (sessionId, presence) => {
        pairing
          .present(sessionId, presence, Date.now())
          .catch((err: unknown) => log.debug({ err }, 'csa: presence not kept'));
      },
      who: () => pairing.who(Date.now()),
      ongoingGames: async () => (await app.liveGames.list(LIST_LIMIT)).map((g) => g.id),
      view: (gameId) => app.games.view(gameId).catch(() => null),
      async chat(from, text, ip) {
        try {
          await app.consumeLimit('chat', requestOf(ip));
        } catch {
          return false;
        }
        await pairing.chat(from, text);
        return true;
      },
      monitor: { games: app.games, hub: app.hub, log },
      version: VERSION,
    };

    const context: SessionContext = {
      gatewayId,
      login: loginDeps,
      pairing,
      games: app.games,
      hub: app.hub,
      startGame,
      ratingOf: (playerId, game) => lobbyRating(app.databases.lobby, playerId, game.timeControl),
      agreeTimeoutMs: config.csaAgreeTimeoutMs,
      startLeaseMs: config.csaStartLeaseMs,
      maxMoves: config.csaMaxMoves,
      x1,
      log,
      gameEnded(gameId) {
        app.analysis
          .keepPlayers(gameId)
          .catch((err: unknown) => log.warn({ err, gameId }, "csa: the players' analysis was not kept"));
      },
    };

    // per address as every per-address limit: an IPv6 client by its /64
    const perAddress = new AddressSlots(config.socketMaxPerIp);
    const listener = new CsaListener(
      {
        open(connection) {
          if (perAddress.full(connection.ip)) return null;
          perAddress.acquire(connection.ip);
          const session = new CsaSession(context, connection, (closed) => sessions.delete(closed.id));
          sessions.set(session.id, session);
          return {
            line: (line) => session.receive(line),
            closed() {
              perAddress.release(connection.ip);
              session.close();
            },
          };
        },
      },
      { firstLineMs: FIRST_LINE_MS, maxBuffered: MAX_BUFFERED },
    );

    let port: number | null = null;
    let floodgate: Floodgate | null = null;
    const subscriber = app.subscribers.csa;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === pairing.chatChannel) hearChat(sessions, text);
      else route(pairing, sessions, text, log);
    });
    // each session's %%WHO entry lives while it is renewed: a gateway that dies takes its own away
    const presence = setInterval(() => {
      for (const session of sessions.values()) x1.presence(session.id, session.presence);
    }, PRESENCE_RENEW_MS);
    presence.unref();

    app.decorate('csa', {
      async listen(host: string, wanted: number) {
        await subscriber.connect();
        await subscriber.subscribe(pairing.channelOf(gatewayId), pairing.chatChannel);
        port = await listener.listen(host, wanted);
        // every listening gateway keeps the rounds' times; one runs each round
        floodgate = startFloodgate({
          pairing,
          intervalMs: config.csaFloodgateIntervalMs,
          schedule: config.csaFloodgateSchedule,
          maxMoves: config.csaMaxMoves,
          log,
        });
        log.info({ port }, 'csa: listening');
        return port;
      },
      get port() {
        return port;
      },
      get sessions() {
        return sessions.size;
      },
    } satisfies CsaFrontEnd);

    // before Redis closes (onClose): a session that goes leaves its queue and rejects its proposal
    app.addHook('preClose', async () => {
      clearInterval(presence);
      floodgate?.stop();
      if (port !== null) await listener.close();
      for (const session of [...sessions.values()]) session.close();
    });
  },
  { name: 'csa', dependencies: ['games', 'hub', 'auth', 'redis', 'databases', 'rate-limit', 'spectators', 'analysis'] },
);

/** A %%CHAT line from any gateway, to this gateway's x1 players. */
function hearChat(sessions: ReadonlyMap<string, CsaSession>, text: string): void {
  let chat: { from?: unknown; text?: unknown };
  try {
    chat = JSON.parse(text) as typeof chat;
  } catch {
    return;
  }
  if (typeof chat.from !== 'string' || typeof chat.text !== 'string') return;
  for (const session of sessions.values()) session.hear(chat.from, chat.text);
}

/** A message on this gateway's channel, to its session; a proposal for a session that is gone is rejected for it. */
function route(
  pairing: PairingStore,
  sessions: ReadonlyMap<string, CsaSession>,
  text: string,
  log: FastifyInstance['log'],
): void {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch {
    log.warn('csa: a message on the gateway channel that is not JSON');
    return;
  }
  const session = sessions.get(envelope.to);
  if (session !== undefined) {
    session.deliver(envelope.message);
    return;
  }
  const { message } = envelope;
  if (message.type !== 'proposal') return;
  const { proposal } = message;
  const gone = proposal.sente.sessionId === envelope.to ? proposal.sente : proposal.gote;
  rejectProposal(pairing, proposal, gone.name).catch((err: unknown) =>
    log.warn({ err }, 'csa: reject for a session that is gone failed'),
  );
}
