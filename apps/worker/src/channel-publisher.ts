/**
 * Publishes on Redis channels with one command per batch: a Lua script that PUBLISHes each
 * (channel, message) pair it is given, in order.
 *
 * Why not ioredis' auto-pipelining: it builds a Pipeline per batch (an object with its own
 * promise and property table), and a Command and a callback per publish: under load, a good
 * share of what the server promoted to V8's old generation (`--trace-gc-nvp`), and the
 * server's CPU per move was lower without it in alternated runs (README, Benchmarks).
 *
 * Batching is the same as auto-pipelining's: publishes made while no batch is in flight go out
 * together on the next tick; those made while one is in flight wait for its reply and go out
 * together after it. Each caller's promise settles with its batch: a failed batch rejects all of
 * its publishes (the caller's subscribers then read the gap from the log).
 *
 * On a Redis Cluster a script may only touch the channels of the slot its key names: the
 * publishes are batched per slot, each batch one script of SPUBLISHes sent to its slot's
 * master. Games' channels share a slot per validate queue (`gameChannel`'s `shares`), so a
 * worker's verdicts for one queue leave together.
 */
import { isCluster, type RedisClient, slotOf } from '@shogi/redis';

// ARGV: channel, message, channel, message, ...; KEYS: none (channels are not keys)
const PUBLISH_ALL = `
for i = 1, #ARGV, 2 do
  redis.call('PUBLISH', ARGV[i], ARGV[i + 1])
end
return #ARGV / 2`;

// KEYS[1]: a channel of the slot every channel in ARGV (channel, message, ...) hashes to, so
// that the cluster client sends the script to that slot's master
const SPUBLISH_ALL = `
for i = 1, #ARGV, 2 do
  redis.call('SPUBLISH', ARGV[i], ARGV[i + 1])
end
return #ARGV / 2`;

/** The commands `defineCommand` adds to the client (ioredis types cannot name them). */
interface WithPublishAll {
  // ioredis flattens an array argument into the command's arguments
  shogiPublishAll(args: readonly string[]): Promise<number>;
  shogiSPublishAll(slotChannel: string, args: readonly string[]): Promise<number>;
}

interface Batch {
  readonly args: string[];
  readonly settle: { resolve: () => void; reject: (err: unknown) => void }[];
}

export interface ChannelPublisher {
  publish(channel: string, message: string): Promise<void>;
}

export function createChannelPublisher(redis: RedisClient): ChannelPublisher {
  const client = redis as unknown as WithPublishAll;
  if (!isCluster(redis)) {
    redis.defineCommand('shogiPublishAll', { numberOfKeys: 0, lua: PUBLISH_ALL });
    return batchingPublisher((args) => client.shogiPublishAll(args));
  }
  redis.defineCommand('shogiSPublishAll', { numberOfKeys: 1, lua: SPUBLISH_ALL });
  const bySlot = new Map<number, ChannelPublisher>();
  return {
    publish(channel, message) {
      const slot = slotOf(channel);
      let publisher = bySlot.get(slot);
      if (publisher === undefined) {
        publisher = batchingPublisher((args) => client.shogiSPublishAll(args[0] as string, args));
        bySlot.set(slot, publisher);
      }
      return publisher.publish(channel, message);
    },
  };
}

/** Publishes in batches, one in flight at a time, each sent by `send` (channel, message, ... in order). */
function batchingPublisher(send: (args: string[]) => Promise<number>): ChannelPublisher {
  let next: Batch | null = null;
  let scheduled = false;
  let inFlight = false;

  const flush = () => {
    scheduled = false;
    if (inFlight || next === null) return;
    const batch = next;
    next = null;
    inFlight = true;
    send(batch.args)
      .then(
        () => {
          for (const s of batch.settle) s.resolve();
        },
        (err: unknown) => {
          for (const s of batch.settle) s.reject(err);
        },
      )
      .finally(() => {
        inFlight = false;
        flush();
      });
  };

  return {
    publish(channel, message) {
      return new Promise<void>((resolve, reject) => {
        next ??= { args: [], settle: [] };
        next.args.push(channel, message);
        next.settle.push({ resolve, reject });
        if (!scheduled && !inFlight) {
          scheduled = true;
          process.nextTick(flush);
        }
      });
    },
  };
}
