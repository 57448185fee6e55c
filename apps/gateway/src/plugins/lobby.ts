/**
 * The lobby service (domain/lobby) over the lobby pool, its notifications on the per-player
 * `player:<id>` channels with the hub of this gateway's lobby sockets on the lobby
 * subscriber, the bots of this process (those that are handed their games), and the sweep
 * that marks seeks and challenges past their time.
 */
import { publish } from '@shogi/redis';
import { expireLobby, lobbyDb } from '@shogi/store';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import type { BotRegistry } from '../domain/bots.js';
import { createHub, type Hub } from '../domain/hub.js';
import { createLobbyService, type LobbyService } from '../domain/lobby/index.js';
import type { LobbyBots } from '../domain/lobby/ports.js';
import { playerChannel } from '../domain/player-channel.js';
import { lobbyStore } from './lobby-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    lobby: LobbyService;
    /** the `player:<id>` channels of this gateway's lobby sockets */
    lobbyHub: Hub;
  }
}

const SWEEP_MS = 60_000;

/** The registry's bots that are handed their games: a bot that finds its own is a player like any. */
const botsOf = (registry: BotRegistry): LobbyBots => ({
  runs: (playerId) => registry.ofPlayer(playerId)?.join !== undefined,
  join: (playerId, game) => registry.ofPlayer(playerId)?.join?.(game),
});

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
    const sweep = setInterval(() => {
      expireLobby(lobbyDb(db), new Date()).catch((err: unknown) =>
        app.log.debug({ err }, 'lobby: expiry sweep failed'),
      );
    }, SWEEP_MS);
    sweep.unref();
    app.decorate('lobby', lobby);
    app.decorate('lobbyHub', hub);
    app.addHook('onClose', async () => {
      clearInterval(sweep);
      await hub.close();
    });
  },
  { name: 'lobby', dependencies: ['databases', 'redis', 'games'] },
);
