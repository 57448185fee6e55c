/**
 * Bearer-token authentication. HTTP routes take `Authorization: Bearer <token>` only; a
 * WebSocket upgrade takes the header too or, since a browser cannot set headers on one, a
 * one-use ticket (`POST /api/socket-ticket`, then `?ticket=`) kept in Redis for
 * SOCKET_TICKET_TTL_MS, so that no long-lived token is ever in a URL. Revocations are announced
 * on Redis so every gateway drops the token from its cache, and closes its sockets, at once; a
 * lost notice is bounded by the cache age (AUTH_CACHE_MS). Unknown tokens are counted per client
 * IP: past AUTH_FAILURES_MAX in a window, that IP's uncached lookups are refused with 429.
 */
import { randomBytes } from 'node:crypto';
import { publish } from '@shogi/redis';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { ApiError } from '../domain/api-error.js';
import { type AuthService, createAuthService, hashToken, type Principal } from '../domain/auth.js';
import { authStoreOver } from './auth-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
    /**
     * The principal of the request's credential: the Authorization header, or for a WebSocket
     * upgrade a socket ticket; 401 UNAUTHORIZED otherwise. Routes do not call this: the access
     * table does (plugins/access.ts) and hands routes `request.principal`.
     */
    authenticate(request: FastifyRequest, options: { socket: boolean }): Promise<Principal>;
    /** A one-use ticket that opens one WebSocket as this principal, on any gateway. */
    issueSocketTicket(principal: Principal): Promise<{ ticket: string; expiresAt: Date }>;
    /**
     * The per-address count of unknown tokens, for a way in that takes tokens otherwise than
     * in a header (a CSA login's trip): the same limit, AUTH_FAILURES_MAX.
     */
    authFailures: { blockedFor(ip: string): number; count(ip: string): void };
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,200})$/;
const TICKET = /^[A-Za-z0-9_-]{1,64}$/;

/** The bearer token of the Authorization header; null without one (or a malformed one). */
export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return header === undefined ? null : (BEARER.exec(header)?.[1] ?? null);
}

export default fp<{ config: GatewayConfig }>(
  async (app: FastifyInstance, { config }) => {
    const channel = `${config.channelPrefix}auth:revoked`;
    const auth = createAuthService({
      store: authStoreOver(app.databases.auth),
      cacheMs: config.authCacheMs,
      sessionTtlDays: config.sessionTtlDays,
      announceRevoked: async (tokenHash) => {
        await publish(app.redis, channel, tokenHash);
      },
    });
    const subscriber = app.subscribers.auth;
    subscriber.on('message', (_channel: string, tokenHash: string) => auth.forget(tokenHash));
    // connected before this plugin, so 'ready' is a reconnection: notices sent while the
    // subscription was down are lost, look every token up again
    subscriber.on('ready', () => auth.forgetAll());
    await subscriber.subscribe(channel);

    const failures = createFailureCounter(app, config);
    const ticketKey = (ticket: string) => `${config.channelPrefix}socket-ticket:${hashToken(ticket)}`;

    const principalOf = async (request: FastifyRequest, tokenHash: string): Promise<Principal> => {
      const blocked = failures.blockedFor(request.ip);
      if (blocked > 0 && !auth.cached(tokenHash))
        throw new ApiError('RATE_LIMITED', `too many unknown tokens from this address; retry in ${blocked} s`, {
          retryAfterSeconds: blocked,
        });
      const principal = await auth.byHash(tokenHash);
      if (principal) return principal;
      failures.count(request.ip);
      throw new ApiError('UNAUTHORIZED');
    };

    app.decorate('auth', auth);
    app.decorate('authenticate', async (request: FastifyRequest, { socket }: { socket: boolean }) => {
      if (request.headers.authorization !== undefined) {
        const token = tokenOf(request);
        if (token === null) throw new ApiError('UNAUTHORIZED', 'send Authorization: Bearer <token>');
        return principalOf(request, hashToken(token));
      }
      const ticket = socket ? (request.query as { ticket?: unknown } | undefined)?.ticket : undefined;
      if (typeof ticket !== 'string') throw new ApiError('UNAUTHORIZED');
      if (!TICKET.test(ticket)) throw new ApiError('UNAUTHORIZED', 'malformed socket ticket');
      const tokenHash = await app.redis.getdel(ticketKey(ticket));
      if (tokenHash === null)
        throw new ApiError('UNAUTHORIZED', 'the socket ticket is unknown, used or expired: get a new one');
      return principalOf(request, tokenHash);
    });
    app.decorate('issueSocketTicket', async (principal: Principal) => {
      const ticket = randomBytes(24).toString('base64url');
      await app.redis.set(ticketKey(ticket), principal.tokenHash, 'PX', config.socketTicketTtlMs);
      return { ticket, expiresAt: new Date(Date.now() + config.socketTicketTtlMs) };
    });
    app.decorate('authFailures', { blockedFor: failures.blockedFor, count: failures.count });
    app.addHook('onClose', async () => failures.close());
  },
  { name: 'auth', dependencies: ['redis', 'databases'] },
);

/**
 * Unknown tokens per client IP, counted in Redis across gateways (one key per IP and window).
 * A gateway that sees an IP pass the limit refuses its uncached lookups until the window ends,
 * from memory: a flood of random tokens then costs neither PostgreSQL nor Redis.
 */
function createFailureCounter(app: FastifyInstance, config: GatewayConfig) {
  const { max, windowMs } = config.authFailures;
  const blockedUntil = new Map<string, number>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [ip, until] of blockedUntil) if (until <= now) blockedUntil.delete(ip);
  }, windowMs);
  sweep.unref();
  return {
    /** seconds this IP must wait, 0 when it may look tokens up */
    blockedFor(ip: string): number {
      const until = blockedUntil.get(ip);
      if (until === undefined) return 0;
      const left = until - Date.now();
      if (left > 0) return Math.ceil(left / 1000);
      blockedUntil.delete(ip);
      return 0;
    },
    count(ip: string): void {
      if (max === 0) return;
      const key = `${config.channelPrefix}auth-failures:${ip}`;
      app.redis
        .multi()
        .incr(key)
        .pexpire(key, windowMs, 'NX')
        .pttl(key)
        .exec()
        .then((results) => {
          const count = Number(results?.[0]?.[1] ?? 0);
          const ttl = Number(results?.[2]?.[1] ?? windowMs);
          if (count > max) blockedUntil.set(ip, Date.now() + (ttl > 0 ? ttl : windowMs));
        })
        .catch((err: unknown) => app.log.debug({ err }, 'auth: failure count not kept'));
    },
    close(): void {
      clearInterval(sweep);
    },
  };
}
