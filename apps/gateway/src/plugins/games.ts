/**
 * The game service and its infrastructure: the PostgreSQL pool and event store
 * (@shogi/store), the players repository, and the BullMQ producer of `validate` and `flag`
 * jobs, whose contract is @shogi/pipeline's.
 */

import type { EventStore } from '@shogi/game';
import {
  enqueueValidate,
  type FlagJobData,
  flagQueuePlaces,
  gameChannel,
  MAX_VALIDATE_BATCH,
  scheduleFlag,
  toEnvelope,
  type ValidateJob,
  type ValidateJobData,
  validateQueuePlaces,
} from '@shogi/pipeline';
import type { CreatePlayerResponse, LobbyMessage } from '@shogi/protocol';
import { publish, queuePrefix, type SlotShare } from '@shogi/redis';
import { botAccountsAmong, takebackPreferences, usernameTaken } from '@shogi/store';
import { Queue } from 'bullmq';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { type BotTitles, cachedBotTitles } from '../domain/bot-titles.js';
import { createGameService, type GameService, type GameServiceDeps } from '../domain/game-service.js';
import { createGuest } from '../domain/names.js';
import { playerChannel } from '../domain/player-channel.js';
import { gatherTurns, tickBatcher } from '../domain/tick-batch.js';
import { storeOver } from './store.js';

/** Guest players; `create` throws INVALID_NAME or NAME_TAKEN (domain/names.ts). */
export interface GuestPlayers {
  create(name: string): Promise<CreatePlayerResponse>;
}

declare module 'fastify' {
  interface FastifyInstance {
    games: GameService & { channelOf(gameId: string): string };
    guests: GuestPlayers;
    /** the BOT titles of bot accounts, for every view that shows players */
    botTitles: BotTitles;
  }
}

export default fp<{ config: GatewayConfig; events?: EventStore }>(
  async (app, { config, events }) => {
    const store = storeOver(app.databases.games, events);
    // the queues' own connection (plugins/redis.ts): BullMQ defines its many scripts on it, and
    // ioredis copies every defined script into each auto-pipeline it builds (a tick's commands),
    // a cost the gateway's CPU showed when the queues shared the auto-pipelined `app.redis`
    const { queueRedis } = app;
    const placed = (name: string, share?: SlotShare) => ({
      connection: queueRedis,
      prefix: queuePrefix(app.redisCluster, config.queuePrefix, name, share),
    });
    // the validate work split by game over VALIDATE_QUEUES queues (one unless on a cluster),
    // spread evenly over the slot space
    const queues = validateQueuePlaces(config.validateQueues).map(({ name, share }) => {
      const queue = new Queue<ValidateJob>(name, placed(name, share));
      queue.on('error', (err) => app.log.warn({ err, queue: name }, 'queue: error'));
      return queue;
    });
    // the flag checks split by game as the validate work is, a game's on the same index
    const flagQueues = flagQueuePlaces(config.validateQueues).map(({ name, share }) => {
      const queue = new Queue<FlagJobData>(name, placed(name, share));
      queue.on('error', (err) => app.log.warn({ err, queue: name }, 'flag queue: error'));
      return queue;
    });
    // the moves recorded in one turn of the event loop (an append batch) leave as one job per
    // queue: BullMQ's scripts are paid per job. Split over several queues, a turn's moves would
    // make as many thin jobs; gathering over more turns (`gatherTurns`) thickens each queue's
    // jobs again under load (an idle loop's turns pass at once)
    const enqueueMoves = tickBatcher<ValidateJobData>(
      async (moves) => {
        await enqueueValidate(queues, moves);
      },
      MAX_VALIDATE_BATCH,
      gatherTurns(queues.length),
    );
    const channelOf = (gameId: string) => gameChannel(gameId, config.channelPrefix, config.validateQueues);
    const botTitles = cachedBotTitles((ids) => botAccountsAmong(store.db, ids), {
      onError: (err) => app.log.warn({ err }, 'bot titles: look-up failed; players shown without'),
    });
    app.decorate('botTitles', botTitles);
    const deps: GameServiceDeps = {
      publish: async (gameId, events) => {
        await publish(app.redis, channelOf(gameId), JSON.stringify(events.map(toEnvelope)));
      },
      announceStarted: async ({ id: gameId, players }) => {
        const tell = (playerId: string, color: 'sente' | 'gote') =>
          publish(
            app.redis,
            playerChannel(playerId, config.channelPrefix),
            JSON.stringify({ type: 'started', gameId, color } satisfies LobbyMessage),
          );
        await Promise.all([tell(players.sente.id, 'sente'), tell(players.gote.id, 'gote')]);
      },
      // the hub plugin registers after this one; it is there by the time commands run
      deliverLocal: (gameId, events) => app.hub.deliver(gameId, events.map(toEnvelope)),
      events: store.events,
      players: store.players,
      maxRetries: config.maxAppendRetries,
      cacheSize: config.stateCacheSize,
      // the first-move timer of a new game; the worker schedules each later turn after its verdict
      scheduleFlag: (gameId, state) => scheduleFlag(flagQueues, gameId, state),
      takebackPreferences: (playerIds) => takebackPreferences(store.db, playerIds),
      logger: app.log,
      titles: botTitles,
      // the submission's copy spares the worker a read of the log, and the worker publishes it
      // with its verdict (see @shogi/pipeline's ValidateJobData)
      enqueue: (gameId, seq, submitted) =>
        enqueueMoves(
          submitted === undefined
            ? { gameId, seq }
            : { gameId, seq, submitted: submitted.data, submittedAt: submitted.recordedAt },
        ),
    };
    const service = createGameService(deps);
    app.decorate('games', { ...service, channelOf });
    const guestDeps = {
      createPlayer: service.createPlayer,
      usernameExists: (username: string) => usernameTaken(store.db, username),
    };
    app.decorate('guests', { create: (name: string) => createGuest(guestDeps, name) });
    app.addHook('onClose', async () => {
      await Promise.all([...queues, ...flagQueues].map((q) => q.close()));
    });
  },
  { name: 'games', dependencies: ['databases', 'redis'] },
);
