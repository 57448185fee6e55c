/**
 * `npm run admin:token -- USERNAME [--days N] [--name NAME] [--scope admin|mod]`: an operator
 * mints a token with the admin scope (it creates games directly with POST /api/games) or the
 * mod scope (the fair-play queue, marks and unmarks) for an existing account.
 * No route can mint one. The token is printed once; it is revoked like any personal token
 * (DELETE /api/tokens/:id with the account's session). DATABASE_URL, REDIS_URL and CHANNEL_PREFIX
 * as for the server.
 */
import { parseArgs } from 'node:util';
import { closeClient, publish, redisClient } from '@shogi/redis';
import { createDb } from '@shogi/store';
import { loadConfig } from '../config.js';
import { createAuthService } from '../domain/auth.js';
import { authStoreOver } from '../plugins/auth-store.js';

const USAGE = 'usage: npm run admin:token -- USERNAME [--days 1-365] [--name NAME] [--scope admin|mod]';

function parse(): { username: string; days: number | undefined; name: string; scope: 'admin' | 'mod' } {
  try {
    const { values, positionals } = parseArgs({
      options: { days: { type: 'string' }, name: { type: 'string' }, scope: { type: 'string' } },
      allowPositionals: true,
    });
    const [username, ...rest] = positionals;
    if (username === undefined || rest.length > 0) throw new Error('give one USERNAME');
    const days = values.days === undefined ? undefined : Number(values.days);
    if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 365))
      throw new Error('--days takes a whole number of days from 1 to 365');
    const scope = values.scope ?? 'admin';
    if (scope !== 'admin' && scope !== 'mod') throw new Error('--scope takes admin or mod');
    const name = values.name ?? scope;
    if (name.length < 1 || name.length > 40) throw new Error('--name takes 1 to 40 characters');
    return { username, days, name, scope };
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const { username, days, name, scope } = parse();
const config = loadConfig(process.env);
const db = createDb(config.databaseUrl, { max: 1, applicationName: 'shogi-admin-token' });
// the gateways look a token up from an address past its failures only if their filters of the
// valid tokens hold it: the new token is announced to them as one they issued would be
const redis = redisClient(config, 'admin-token', { lazyConnect: true });
const told: Promise<unknown>[] = [];
try {
  const auth = createAuthService({
    store: authStoreOver(db),
    cacheMs: 0,
    sessionTtlDays: config.sessionTtlDays,
    announceRevoked: async () => {},
    issued: (tokenHash) => {
      told.push(
        publish(redis, `${config.channelPrefix}auth:issued`, tokenHash).catch((err: unknown) =>
          console.error(
            `the gateways were not told of the token (${(err as Error).message}): from an address past its failures it works after their next seeding (a restart or a Redis reconnection)`,
          ),
        ),
      );
    },
  });
  const minted = await auth.mintAdminToken(username, {
    name,
    scope,
    ...(days === undefined ? {} : { expiresInDays: days }),
  });
  await Promise.all(told);
  if (minted === undefined) {
    console.error(`no account has the username ${JSON.stringify(username)}`);
    process.exitCode = 1;
  } else {
    const until = minted.expiresAt === null ? 'until revoked' : `until ${minted.expiresAt.toISOString()}`;
    console.log(`${scope} token ${minted.id} for ${username}, valid ${until}`);
    console.log(`token (shown once): ${minted.token}`);
  }
} catch (err) {
  console.error(`minting failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.destroy();
  await closeClient(redis);
}
