import { createRequire } from 'node:module';

// ioredis's own slot function (CRC16, hash tags honoured); a CommonJS module without types
const calculateSlot = createRequire(import.meta.url)('cluster-key-slot') as (key: string) => number;

/** A cluster's hash slots: every key hashes to one of them, and each master serves a range. */
export const HASH_SLOTS = 16_384;

/** The hash slot of a key or a sharded channel (its `{…}` tag's, when it has one). */
export const slotOf = (key: string): number => calculateSlot(key);

/** Queue `index` of `of` queues that share one kind of work, to be spread over a cluster's masters. */
export interface SlotShare {
  readonly index: number;
  readonly of: number;
}

/**
 * Where a BullMQ queue's keys go. BullMQ's Lua scripts touch many keys of their queue at once,
 * and a script's keys must share one hash slot on a cluster: each queue gets a hash tag of its
 * own (`{shogi:validate-0}`), so every queue sits whole on one master and different queues
 * spread over the masters. On a single server the prefix is the configured one, unchanged.
 *
 * `share` places queue `index` of `of` in the index-th of `of` equal parts of the slot space
 * (`slotShareTag`), where `redis-cli --cluster create` puts a master of `of`: a tag left to
 * its hash could put several of them on one master, and which ones would change with the
 * configured prefix.
 */
export function queuePrefix(cluster: boolean, base: string, queueName: string, share?: SlotShare): string {
  if (!cluster) return base;
  const tag = `${base}:${queueName}`;
  return `{${share === undefined || share.of <= 1 ? tag : slotShareTag(tag, share)}}`;
}

/**
 * `tag` itself when its slot lies in the share's part of the slot space, else the first of
 * `tag#1`, `tag#2`, … that does: the same answer in every process, from the names alone (no
 * look at the cluster, whose slot map may be moving while a process starts).
 */
export function slotShareTag(tag: string, { index, of }: SlotShare): string {
  if (!Number.isInteger(of) || of < 1 || !Number.isInteger(index) || index < 0 || index >= of)
    throw new Error(`a slot share is an index in [0, of): got ${index} of ${of}`);
  const from = Math.floor((index * HASH_SLOTS) / of);
  const to = Math.floor(((index + 1) * HASH_SLOTS) / of);
  for (let k = 0; ; k++) {
    const candidate = k === 0 ? tag : `${tag}#${k}`;
    const slot = slotOf(candidate);
    if (slot >= from && slot < to) return candidate;
  }
}
