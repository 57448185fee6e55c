/**
 * The pub/sub hub: ONE Redis subscriber connection per gateway process for all games.
 * A channel is subscribed while at least one socket watches its game, and each message
 * (a JSON array of stored events, published by the worker) is routed to that game's
 * listeners. Delivery is best effort; feeds (feed.ts) fill gaps from PostgreSQL.
 */
/**
 * The subscriber connection the hub listens on (an ioredis connection in subscriber mode,
 * connected before the hub is made); its owner closes it.
 */
export interface Subscriber {
  on(event: 'ready', listener: () => void): unknown;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
}

/** The little of a logger the hub needs (pino and Fastify's both fit). */
export interface HubLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export type HubListener = (events: readonly unknown[]) => void;

/**
 * Messages delivered locally whose Redis copy has not come back yet, at most this many: a
 * copy that never comes (its channel was left, Redis was down) is forgotten with the oldest.
 */
const MAX_PENDING_ECHOES = 10_000;

export interface Hub {
  /**
   * Resolves once the channel is subscribed, so a catch-up read after it misses nothing.
   * `resync` is called once the subscriber is back after a lost Redis connection: what was
   * published meanwhile is lost, so the caller re-reads its tail.
   */
  join(gameId: string, listener: HubListener, resync?: () => void): Promise<() => void>;
  /**
   * Hands events this process appended to its own listeners at once, as if they had come
   * back from Redis (they will, too: feeds drop what they already have). `published` is the
   * exact message published for them, when there is one: its copy coming back from Redis is
   * then dropped unparsed.
   */
  deliver(gameId: string, events: readonly unknown[], published?: string): void;
  /** games with at least one listener */
  readonly size: number;
  /** Forgets every listener; the subscriber stays open (its owner closes it). */
  close(): Promise<void>;
}

export function createHub(
  subscriber: Subscriber,
  channelOf: (gameId: string) => string,
  logger: HubLog,
  /** sees every batch before the sockets do (the game service keeps its states current) */
  tap?: (gameId: string, events: readonly unknown[]) => void,
): Hub {
  const listeners = new Map<string, Set<HubListener>>();
  const gameOfChannel = new Map<string, string>();
  const resyncs = new Map<HubListener, () => void>();
  // message -> how many local deliveries of it still wait for their copy from Redis
  const echoes = new Map<string, number>();

  // The subscriber connected before the hub was made, so 'ready' here is a reconnection.
  // ioredis re-sends SUBSCRIBE after 'ready'; subscribing again (idempotent) and awaiting it
  // means the channels are live before the listeners re-read what they missed.
  subscriber.on('ready', () => {
    const channels = [...gameOfChannel.keys()];
    if (channels.length === 0) return;
    subscriber.subscribe(...channels).then(
      () => {
        for (const resync of resyncs.values()) resync();
      },
      (err: unknown) => logger.warn({ err }, 'hub: resubscribe after reconnect failed'),
    );
  });

  const dispatch = (gameId: string, batch: readonly unknown[]) => {
    try {
      tap?.(gameId, batch);
    } catch (err) {
      logger.error({ err, gameId }, 'hub: tap failed');
    }
    const set = listeners.get(gameId);
    if (!set) return;
    for (const listener of set) {
      try {
        listener(batch);
      } catch (err) {
        logger.error({ err, gameId }, 'hub: listener failed');
      }
    }
  };

  subscriber.on('message', (channel: string, message: string) => {
    // a gateway without a worker beside it never has echoes: no hashing of every message
    const pending = echoes.size === 0 ? undefined : echoes.get(message);
    if (pending !== undefined) {
      if (pending > 1) echoes.set(message, pending - 1);
      else echoes.delete(message);
      return;
    }
    const gameId = gameOfChannel.get(channel);
    if (gameId === undefined || !listeners.has(gameId)) return;
    let events: unknown;
    try {
      events = JSON.parse(message);
    } catch {
      logger.warn({ channel }, 'hub: dropped a message that is not JSON');
      return;
    }
    dispatch(gameId, Array.isArray(events) ? events : [events]);
  });

  const leave = (gameId: string, listener: HubListener) => {
    resyncs.delete(listener);
    const set = listeners.get(gameId);
    if (!set?.delete(listener) || set.size > 0) return;
    listeners.delete(gameId);
    const channel = channelOf(gameId);
    gameOfChannel.delete(channel);
    subscriber.unsubscribe(channel).catch((err: unknown) => logger.warn({ err, gameId }, 'hub: unsubscribe failed'));
  };

  return {
    deliver(gameId, events, published) {
      if (!listeners.has(gameId)) return;
      dispatch(gameId, events);
      if (published === undefined) return;
      echoes.set(published, (echoes.get(published) ?? 0) + 1);
      if (echoes.size > MAX_PENDING_ECHOES) {
        const oldest = echoes.keys().next().value;
        if (oldest !== undefined) echoes.delete(oldest);
      }
    },
    async join(gameId, listener, resync) {
      let set = listeners.get(gameId);
      if (!set) {
        set = new Set();
        listeners.set(gameId, set);
        gameOfChannel.set(channelOf(gameId), gameId);
      }
      set.add(listener);
      if (resync) resyncs.set(listener, resync);
      // SUBSCRIBE is idempotent in Redis; awaiting it for every joiner keeps the
      // "subscribed before catch-up" promise even when two sockets join at once.
      await subscriber.subscribe(channelOf(gameId));
      return () => leave(gameId, listener);
    },
    get size() {
      return listeners.size;
    },
    async close() {
      listeners.clear();
      gameOfChannel.clear();
      echoes.clear();
      resyncs.clear();
    },
  };
}

/**
 * The way in to the hub of the gateway in this process, for a worker running beside it
 * (`npm start`'s one process): made before the gateway exists, bound by it once its hub is
 * up. Unbound, it drops what it is given, and the Redis copy is all the sockets get.
 */
export class LocalDelivery {
  #hub: Hub | null = null;

  bind(hub: Hub | null): void {
    this.#hub = hub;
  }

  /** See Hub.deliver; `message` is what was published on Redis for these events. */
  deliver(gameId: string, events: readonly unknown[], message: string): void {
    this.#hub?.deliver(gameId, events, message);
  }
}
