/**
 * `npm run accounts:reset-password -- USERNAME`: an operator resets a player's forgotten
 * password. Prints a temporary password once (give it to the player, who logs in with it and
 * changes it with POST /api/me/password); the account's sessions end on every gateway, its
 * personal API tokens stay. DATABASE_URL, REDIS_URL (or REDIS_CLUSTER_NODES) and CHANNEL_PREFIX
 * as for the server.
 */
import { describeTarget, publish, redisClient } from '@shogi/redis';
import { createDb } from '@shogi/store';
import { loadConfig } from '../config.js';
import { createAuthService } from '../domain/auth.js';
import { authStoreOver } from '../plugins/auth-store.js';

const username = process.argv[2];
if (username === undefined || process.argv.length > 3) {
  console.error('usage: npm run accounts:reset-password -- USERNAME');
  process.exit(2);
}
const config = loadConfig(process.env);
const db = createDb(config.databaseUrl, { max: 1, applicationName: 'shogi-reset-password' });
const redis = redisClient(config, 'reset-password', { lazyConnect: true, maxRetriesPerRequest: 1 });
try {
  await redis.connect().catch(() => {
    console.error(
      `Redis (${describeTarget(config)}) is not reachable: gateways drop the ended sessions within AUTH_CACHE_MS`,
    );
  });
  const auth = createAuthService({
    store: authStoreOver(db),
    cacheMs: 0,
    sessionTtlDays: config.sessionTtlDays,
    announceRevoked: async (tokenHash) => {
      if (redis.status === 'ready') await publish(redis, `${config.channelPrefix}auth:revoked`, tokenHash);
    },
  });
  const reset = await auth.resetPassword(username);
  if (reset === undefined) {
    console.error(`no account has the username ${JSON.stringify(username)}`);
    process.exitCode = 1;
  } else {
    console.log(`password of ${username} reset; ${reset.sessionsEnded} session(s) ended`);
    console.log(`temporary password (shown once): ${reset.temporaryPassword}`);
  }
} catch (err) {
  console.error(`reset failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  redis.disconnect();
  await db.destroy();
}
