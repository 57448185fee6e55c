export { type ChannelSubscriber, channelSubscriber, publish, readyToSubscribe } from './channels.js';
export { type ClientOptions, closeClient, isCluster, type RedisClient, redisClient } from './client.js';
export { mastersOf, scanKeys } from './masters.js';
export { HASH_SLOTS, queuePrefix, type SlotShare, slotOf, slotShareTag } from './queues.js';
export {
  type ClusterNode,
  clusterNodesOf,
  clusterNodesText,
  DEFAULT_REDIS_URL,
  describeTarget,
  onCluster,
  type RedisTarget,
  redisTargetFromEnv,
} from './target.js';
