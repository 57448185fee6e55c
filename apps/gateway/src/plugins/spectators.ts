/**
 * Spectating infrastructure shared by the watch socket, the NDJSON stream and the live
 * feed: the rooms (domain/spectators.ts), the live games (domain/live-games.ts) with their
 * own subscription while a live feed is open (a pattern on every game's channel; on a Redis
 * Cluster, which has no sharded patterns, the featured games' channels), the ping/pong heartbeat, the
 * per-address connection counts, the spectator counts shared with the other gateways (one
 * subscriber on one channel), and the timers (counts, live updates, idle resync).
 */
import { randomUUID } from 'node:crypto';
import type { WireEvent } from '@shogi/protocol';
import { isCluster, publish, readyToSubscribe } from '@shogi/redis';
import { listGames, mainRatings } from '@shogi/store';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { AddressSlots } from '../domain/connection-caps.js';
import { LiveGames } from '../domain/live-games.js';
import { countsMessage, RemoteCounts } from '../domain/spectator-counts.js';
import { createSpectators, type Spectators } from '../domain/spectators.js';

/** What the heartbeat needs of a ws socket. */
export interface Pingable {
  ping(): void;
  terminate(): void;
}

export interface Heartbeat {
  track(socket: Pingable): void;
  alive(socket: Pingable): void;
  untrack(socket: Pingable): void;
}

/**
 * The public long-lived connections of this gateway per client address (WATCH_MAX_PER_IP):
 * spectator sockets, the public NDJSON game stream and the record downloads together.
 */
export interface ConnectionLimit {
  /** the address holds as many connections as it may (checked before the upgrade) */
  full(ip: string): boolean;
  acquire(ip: string): void;
  release(ip: string): void;
  /** for a stream, before its first byte: a slot (429 TOO_MANY_CONNECTIONS when none is left) and its release */
  hold(ip: string): () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    spectators: Spectators;
    liveGames: LiveGames;
    heartbeat: Heartbeat;
    watchLimit: ConnectionLimit;
    /** opens the subscription behind the live feed while at least one feed is open */
    liveSubscription: { ref(): Promise<void>; unref(): void };
  }
}

const COUNT_FLUSH_MS = 1000;
/** how often each gateway tells the others its spectator counts */
const COUNT_SHARE_MS = 1000;
const LIVE_FLUSH_MS = 500;
const LIVE_REFRESH_MS = 10_000;
const IDLE_RESYNC_MS = 10_000;

export default fp<{ config: GatewayConfig }>(
  async (app, { config }) => {
    const log = app.log.child({ component: 'spectators' });
    const db = app.databases.live;
    const live = new LiveGames({
      ongoing: async (limit, since) => listGames(db, { status: 'ongoing', limit, updatedSince: since }),
      freshMs: config.liveFreshSeconds * 1000,
      ratings: (ids) => mainRatings(db, ids, new Date()),
      spectators: (gameId) => spectators.count(gameId),
      titles: app.botTitles,
      featuredChanged: (gameIds) => {
        following = follow(gameIds).catch((err: unknown) => log.warn({ err }, 'live: subscribe failed'));
      },
    });
    // --- spectator counts of the other gateways
    const gatewayId = randomUUID();
    const remote = new RemoteCounts(gatewayId, 3 * COUNT_SHARE_MS);
    const countsChannel = `${config.channelPrefix}spectators`;
    const countsSub = app.subscribers.spectatorCounts;
    countsSub.on('message', (_channel: string, message: string) => remote.receive(message, Date.now()));
    await countsSub.subscribe(countsChannel);

    const spectators = createSpectators({
      remoteCount: (gameId) => remote.of(gameId),
      hub: app.hub,
      view: (gameId) => app.games.view(gameId),
      eventsAfter: (gameId, seq, limit) => app.games.eventsAfter(gameId, seq, limit),
      toWire: (e) => app.games.toWire(e),
      log,
    });

    // --- heartbeat: a socket that did not answer the previous ping is dropped
    const sockets = new Map<Pingable, boolean>();
    const heartbeat: Heartbeat = {
      track: (s) => sockets.set(s, true),
      alive: (s) => {
        if (sockets.has(s)) sockets.set(s, true);
      },
      untrack: (s) => sockets.delete(s),
    };
    const beat = setInterval(() => {
      for (const [socket, alive] of sockets) {
        if (!alive) {
          sockets.delete(socket);
          socket.terminate();
          continue;
        }
        sockets.set(socket, false);
        socket.ping();
      }
    }, config.watchHeartbeatMs);

    // --- per-address limit
    const watchLimit: ConnectionLimit = new AddressSlots(config.watchMaxPerIp);

    // --- live feed: one pattern subscription for all games, only while someone follows it
    // (every game's messages come to this gateway while it is on); on a cluster, a subscription
    // to each featured game's channel, kept to the list at each refresh
    const liveSub = app.subscribers.live;
    let subscribed = false;
    let feedRefs = 0;
    const pattern = `${config.channelPrefix}game:*`;
    const prefixLength = `${config.channelPrefix}game:`.length;
    let followed = new Set<string>();
    let following: Promise<void> = Promise.resolve();
    const follow = async (gameIds: readonly string[]): Promise<void> => {
      if (!app.redisCluster || !subscribed) return;
      const wanted = new Set(gameIds.map((id) => app.games.channelOf(id)));
      const left = [...followed].filter((c) => !wanted.has(c));
      const added = [...wanted].filter((c) => !followed.has(c));
      followed = wanted;
      if (left.length > 0)
        liveSub.unsubscribe(...left).catch((err: unknown) => log.warn({ err }, 'live: unsubscribe failed'));
      if (added.length > 0) await liveSub.subscribe(...added);
    };
    const onGameMessage = (channel: string, message: string) => {
      // what was still on its way when the last feed closed
      if (!subscribed) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(message);
      } catch {
        return;
      }
      const events: WireEvent[] = [];
      for (const e of Array.isArray(parsed) ? parsed : [parsed]) {
        const w = app.games.toWire(e);
        if (w) events.push(w);
      }
      live.observe(channel.slice(prefixLength), events);
    };
    const patternClient = liveSub.client;
    if (isCluster(patternClient)) liveSub.on('message', onGameMessage);
    else
      patternClient.on('pmessage', (_p: string, channel: string, message: string) => onGameMessage(channel, message));
    const liveSubscription = {
      async ref() {
        feedRefs++;
        if (subscribed) return;
        subscribed = true;
        if (isCluster(patternClient)) {
          // the list read, its games' channels subscribed (the route reads the list again after)
          await live.refresh();
          await following;
        } else {
          await readyToSubscribe(patternClient);
          await patternClient.psubscribe(pattern);
        }
      },
      unref() {
        if (--feedRefs > 0 || !subscribed) return;
        subscribed = false;
        const done = (err: unknown) => log.warn({ err }, 'live: unsubscribe failed');
        if (isCluster(patternClient)) {
          const all = [...followed];
          followed = new Set();
          if (all.length > 0) liveSub.unsubscribe(...all).catch(done);
        } else
          readyToSubscribe(patternClient)
            .then(() => patternClient.punsubscribe(pattern))
            .catch(done);
      },
    };

    // --- timers: spectator counts, live updates, the live list, idle rooms
    const counts = setInterval(() => {
      remote.recount(Date.now());
      spectators.flushCounts();
    }, COUNT_FLUSH_MS);
    const share = setInterval(() => {
      const local = [...spectators.rooms.values()].map((r): [string, number] => [r.gameId, r.cursors.size]);
      publish(app.redis, countsChannel, countsMessage(gatewayId, local)).catch(() => {
        // the others forget this gateway's counts after three periods; they come back with Redis
      });
    }, COUNT_SHARE_MS);
    const liveFlush = setInterval(() => {
      if (live.feeds.size === 0) return;
      live.syncSpectators();
      live.flush();
    }, LIVE_FLUSH_MS);
    const liveRefresh = setInterval(() => {
      if (live.feeds.size === 0) return;
      live.refresh().then(
        (changed) => changed && live.broadcastList(),
        (err: unknown) => log.warn({ err }, 'live: refresh failed'),
      );
    }, LIVE_REFRESH_MS);
    const idle = setInterval(() => spectators.resync(IDLE_RESYNC_MS), IDLE_RESYNC_MS);

    // After Redis comes back, what was published meanwhile is lost: every room re-reads
    // its tail (again a little later, as the hub's subscriber may reconnect after this one).
    const resyncTimers = new Set<NodeJS.Timeout>();
    app.redis.on('ready', () => {
      log.warn({ rooms: spectators.rooms.size }, 'spectators: Redis is back, re-reading the tails of watched games');
      for (const delay of [0, 1000, 3000]) {
        const t = setTimeout(() => {
          resyncTimers.delete(t);
          spectators.resync(0);
        }, delay);
        resyncTimers.add(t);
      }
    });

    app.decorate('spectators', spectators);
    app.decorate('liveGames', live);
    app.decorate('heartbeat', heartbeat);
    app.decorate('watchLimit', watchLimit);
    app.decorate('liveSubscription', liveSubscription);
    app.addHook('onClose', async () => {
      for (const t of [beat, counts, share, liveFlush, liveRefresh, idle]) clearInterval(t);
      for (const t of resyncTimers) clearTimeout(t);
      spectators.close();
    });
  },
  { name: 'spectators', dependencies: ['hub', 'games', 'redis', 'databases'] },
);
