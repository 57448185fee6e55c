/**
 * The worker's channel publisher on a client whose commands are recorded by name, and the
 * messages published through it in the order given: what the publisher tests compare the
 * subscribers' deliveries and the scripts sent with.
 */
import type { RedisClient } from '@shogi/redis';
import { createChannelPublisher } from '../../apps/worker/src/channel-publisher.js';

export interface RecordedPublisher {
  publish(channel: string, message: string): Promise<void>;
  /** The commands sent through the client, by name, until `stop`. */
  readonly commands: string[];
  /** Every message published, with its channel. */
  readonly sent: [string, string][];
  /** Puts the client's own sendCommand back. */
  stop(): void;
}

export function recordedPublisher(redis: RedisClient): RecordedPublisher {
  const commands: string[] = [];
  const sent: [string, string][] = [];
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
    commands.push(command.name);
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof redis.sendCommand;
  const publisher = createChannelPublisher(redis);
  return {
    commands,
    sent,
    publish(channel, message) {
      sent.push([channel, message]);
      return publisher.publish(channel, message);
    },
    stop() {
      redis.sendCommand = send;
    },
  };
}

/** Messages by channel, each channel's in the order listed. */
export function byChannel(list: readonly [string, string][]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [channel, message] of list) out.set(channel, [...(out.get(channel) ?? []), message]);
  return out;
}
