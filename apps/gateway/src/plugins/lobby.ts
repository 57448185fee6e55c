/**
 * The lobby service (domain/lobby) over the lobby pool, its notifications on the per-player
 * `player:<id>` channels with the hub of this gateway's lobby sockets on the lobby
 * subscriber, the bots of this process (those that are handed their games), the sweep
 * that marks seeks and challenges past their time, the live seek list of the lobby sockets
 * (domain/seek-feed.ts, on the `lobby:seeks` channel) and who looks at the lobby
 * (domain/lobby-presence.ts, a sorted set in Redis).
 */
import { publish } from '@shogi/redis';
import { expireLobby, lobbyDb } from '@shogi/store';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import type { BotRegistry } from '../domain/bots.js';
import { createHub, type Hub } from '../domain/hub.js';
import { createLobbyService, type LobbyService } from '../domain/lobby/index.js';
import type { LobbyBots } from '../domain/lobby/ports.js';
import { createLobbyPresence, type LobbyPresence } from '../domain/lobby-presence.js';
import { playerChannel } from '../domain/player-channel.js';
import { createSeekFeed, type SeekFeed } from '../domain/seek-feed.js';
import { lobbyStore } from './lobby-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    lobby: LobbyService;
    /** the `player:<id>` channels of this gateway's lobby sockets */
    lobbyHub: Hub;
    /** the open seeks, sent to this gateway's lobby sockets as they change */
    seekFeed: SeekFeed;
    /** the lobby sockets open on every gateway, by player */
    lobbyPresence: LobbyPresence;
  }
}

const SWEEP_MS = 60_000;

/** The registry's bots that are handed their games: a bot that finds its own is a player like any. */
const botsOf = (registry: BotRegistry): LobbyBots => ({
  runs: (playerId) => registry.ofPlayer(playerId)?.join !== undefined,
  join: (playerId, game) => registry.ofPlayer(playerId)?.join?.(game),
});

/**
 * The service, its calls that may change the open seeks announced once they are done (a seek
 * posted or cancelled; a game started, which withdraws its players' seeks), failed or not.
 */
function withSeekNews(lobby: LobbyService, feed: SeekFeed): LobbyService {
  const told =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } finally {
        feed.changed();
      }
    };
  return {
    ...lobby,
    createSeek: told(lobby.createSeek),
    cancelSeek: told(lobby.cancelSeek),
    accept: told(lobby.accept),
    rematch: told(lobby.rematch),
    startAlone: told(lobby.startAlone) as LobbyService['startAlone'],
  };
}

export default fp<{ config: GatewayConfig; bots?: BotRegistry }>(
  async (app, { config, bots }) => {
    const db = app.databases.lobby;
    const channelOf = (playerId: string) => playerChannel(playerId, config.channelPrefix);
    const lobby = createLobbyService({
      store: lobbyStore(db),
      games: app.games,
      maxOpenSeeksPerAddress: config.lobbyMaxOpenSeeksPerIp,
      ratedGamesPerPair: config.ratedGamesPerPairPerDay,
      titles: app.botTitles,
      ...(bots === undefined ? {} : { bots: botsOf(bots) }),
      notify: async (playerId, message) => {
        await publish(app.redis, channelOf(playerId), JSON.stringify(message));
      },
    });
    const hub = createHub(app.subscribers.lobby, channelOf, app.log.child({ component: 'lobby-hub' }));
    const seeksChannel = `${config.channelPrefix}lobby:seeks`;
    const feed = createSeekFeed({
      list: () => lobby.listSeeks(),
      announce: async () => {
        await publish(app.redis, seeksChannel, '{}');
      },
      onError: (err) => app.log.debug({ err }, 'lobby: seek list not sent'),
    });
    // the lobby subscriber carries the seek channel beside the players' (each hub reads its own)
    const seekHub = createHub(app.subscribers.lobby, () => seeksChannel, app.log.child({ component: 'seek-hub' }));
    await seekHub.join(
      'seeks',
      () => feed.refresh(),
      () => feed.refresh(),
    );
    const presence = createLobbyPresence(app.redis, `${config.channelPrefix}lobby:presence`, {
      ...(bots === undefined ? {} : { ignore: (playerId: string) => bots.ofPlayer(playerId) !== undefined }),
      onError: (err) => app.log.debug({ err }, 'lobby: presence not recorded'),
    });
    const sweep = setInterval(() => {
      expireLobby(lobbyDb(db), new Date()).then(
        // expired seeks leave the sockets' lists too
        () => feed.refresh(),
        (err: unknown) => app.log.debug({ err }, 'lobby: expiry sweep failed'),
      );
    }, SWEEP_MS);
    sweep.unref();
    app.decorate('lobby', withSeekNews(lobby, feed));
    app.decorate('lobbyHub', hub);
    app.decorate('seekFeed', feed);
    app.decorate('lobbyPresence', presence);
    app.addHook('onClose', async () => {
      clearInterval(sweep);
      await presence.close();
      await seekHub.close();
      await hub.close();
    });
  },
  { name: 'lobby', dependencies: ['databases', 'redis', 'games'] },
);
