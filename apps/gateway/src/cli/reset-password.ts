/**
 * `npm run accounts:reset-password -- USERNAME [--keep-personal-tokens]`: an operator resets a
 * player's forgotten password. Prints a temporary password once (give it to the player, who
 * logs in with it and changes it with POST /api/me/password); the account's sessions and
 * personal API tokens end on every gateway, as a password change ends them: whoever knew the
 * old password may have minted some. `--keep-personal-tokens` keeps the personal tokens (the
 * player only forgot the password). DATABASE_URL, REDIS_URL (or REDIS_CLUSTER_NODES) and
 * CHANNEL_PREFIX as for the server.
 */
import { parseArgs } from 'node:util';
import { describeTarget, publish, redisClient } from '@shogi/redis';
import { createDb } from '@shogi/store';
import { loadConfig } from '../config.js';
import { createAuthService } from '../domain/auth.js';
import { authStoreOver } from '../plugins/auth-store.js';

const USAGE = 'usage: npm run accounts:reset-password -- USERNAME [--keep-personal-tokens]';

function parse(): { username: string; keepPersonal: boolean } {
  try {
    const { values, positionals } = parseArgs({
      options: { 'keep-personal-tokens': { type: 'boolean', default: false } },
      allowPositionals: true,
    });
    const [username, ...rest] = positionals;
    if (username === undefined || rest.length > 0) throw new Error('give one USERNAME');
    return { username, keepPersonal: values['keep-personal-tokens'] === true };
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const { username, keepPersonal } = parse();
const config = loadConfig(process.env);
const db = createDb(config.databaseUrl, { max: 1, applicationName: 'shogi-reset-password' });
const redis = redisClient(config, 'reset-password', { lazyConnect: true, maxRetriesPerRequest: 1 });
try {
  await redis.connect().catch(() => {
    console.error(
      `Redis (${describeTarget(config)}) is not reachable: gateways drop the ended tokens within AUTH_CACHE_MS`,
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
  const reset = await auth.resetPassword(username, { revokePersonalTokens: !keepPersonal });
  if (reset === undefined) {
    console.error(`no account has the username ${JSON.stringify(username)}`);
    process.exitCode = 1;
  } else {
    const which = keepPersonal ? 'sessions; personal tokens kept' : 'sessions and personal tokens';
    console.log(`password of ${username} reset; ${reset.tokensRevoked} token(s) revoked (${which})`);
    console.log(`temporary password (shown once): ${reset.temporaryPassword}`);
  }
} catch (err) {
  console.error(`reset failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  redis.disconnect();
  await db.destroy();
}
