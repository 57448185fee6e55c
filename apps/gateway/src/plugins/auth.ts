/**
 * Bearer-token authentication (`Authorization: Bearer <token>` or, for WebSockets,
 * `?token=`) and scopes. Revocations are announced on Redis so every gateway drops the
 * token from its cache at once; a lost notice is bounded by the cache age (AUTH_CACHE_MS).
 */
import type { Scope } from '@shogi/protocol';
import { createDb } from '@shogi/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { GatewayConfig } from '../config.js';
import { ApiError } from '../domain/api-error.js';
import { type AuthService, createAuthService, type Principal } from '../domain/auth.js';

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
    /** The principal of the request's token (player, username, token kind and scopes); 401 UNAUTHORIZED otherwise. */
    authenticate(request: FastifyRequest): Promise<Principal>;
    /** authenticate, then 403 INSUFFICIENT_SCOPE unless the token has the scope. */
    requireScope(request: FastifyRequest, scope: Scope): Promise<Principal>;
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,200})$/;

export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header !== undefined) return BEARER.exec(header)?.[1] ?? null;
  const query = request.query as Record<string, unknown> | undefined;
  const token = query?.token;
  return typeof token === 'string' && token.length > 0 && token.length <= 200 ? token : null;
}

/** Throws INSUFFICIENT_SCOPE unless the principal's token has the scope. */
export function checkScope(principal: Principal, scope: Scope): Principal {
  if (!principal.token.scopes.includes(scope)) throw new ApiError('INSUFFICIENT_SCOPE', `needs the ${scope} scope`);
  return principal;
}

export default fp<{ config: GatewayConfig }>(
  async (app: FastifyInstance, { config }) => {
    const db = createDb(config.databaseUrl, { max: 4, applicationName: 'shogi-gateway-auth' });
    const channel = `${config.channelPrefix}auth:revoked`;
    const auth = createAuthService({
      db,
      cacheMs: config.authCacheMs,
      sessionTtlDays: config.sessionTtlDays,
      announceRevoked: async (tokenHash) => {
        await app.redis.publish(channel, tokenHash);
      },
    });
    const subscriber = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
    subscriber.on('error', (err) => app.log.warn({ err }, 'auth: subscriber connection error'));
    subscriber.on('message', (_channel: string, tokenHash: string) => auth.forget(tokenHash));
    await subscriber.connect();
    await subscriber.subscribe(channel);

    const authenticate = async (request: FastifyRequest): Promise<Principal> => {
      const token = tokenOf(request);
      if (token === null) throw new ApiError('UNAUTHORIZED');
      const principal = await auth.authenticate(token);
      if (!principal) throw new ApiError('UNAUTHORIZED');
      return principal;
    };
    app.decorate('auth', auth);
    app.decorate('authenticate', authenticate);
    app.decorate('requireScope', async (request: FastifyRequest, scope: Scope) =>
      checkScope(await authenticate(request), scope),
    );
    app.addHook('onClose', async () => {
      await subscriber.quit().catch(() => subscriber.disconnect());
      await db.destroy();
    });
  },
  { name: 'auth', dependencies: ['redis'] },
);
