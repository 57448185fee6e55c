/**
 * Bearer-token authentication. HTTP routes take `Authorization: Bearer <token>` only; a
 * WebSocket upgrade takes the header too or, since a browser cannot set headers on one, a
 * one-use ticket (`POST /api/socket-ticket`, then `?ticket=`) kept in Redis for
 * SOCKET_TICKET_TTL_MS, so that no long-lived token is ever in a URL. Revocations are announced
 * on Redis so every gateway drops the token from its cache, and closes its sockets, at once; a
 * lost notice is bounded by the cache age (AUTH_CACHE_MS). Unknown tokens are counted per client
 * address (and wrong CSA trips per account too): past AUTH_FAILURES_MAX in a window, that
 * address's tokens are looked up only if the gateway's filter of every valid token
 * (domain/valid-tokens.ts) may hold them, and refused with 429 otherwise. The filter has no
 * false negatives, so a valid token is never refused for a guesser sharing its address: the
 * brake only saves the lookups of guesses.
 */

import { randomBytes } from 'node:crypto';
import { metrics } from '@shogi/metrics';
import { publish } from '@shogi/redis';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayConfig } from '../config.js';
import { ApiError } from '../domain/api-error.js';
import { type AuthService, createAuthService, hashToken, type Principal } from '../domain/auth.js';
import { addressKey } from '../domain/client-address.js';
import { ValidTokens } from '../domain/valid-tokens.js';
import { authStoreOver, validTokenSourceOver } from './auth-store.js';

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
     * The counts of unknown tokens per address and per account, for a way in that takes tokens
     * otherwise than in a header (a CSA login's trip): the same limit, AUTH_FAILURES_MAX.
     */
    authFailures: {
      /** seconds before the address's (or the account's, when named) unknown tokens are looked up again; 0: now */
      blockedFor(ip: string, account?: string): number;
      /** counts a wrong token from the address (and against the account, when named) */
      count(ip: string, account?: string): void;
      /**
       * Whether the token may be valid (the filter of every valid token holds it, or it is a
       * false positive): a token of an address or account past its failures is looked up
       * only then. Never false for a valid token.
       */
      mayBeValid(tokenHash: string): boolean;
    };
  }
}

/** how long a start waits for the filter of the valid tokens before it serves without it */
const SEED_START_WAIT_MS = 1_000;
/** how soon a failed seeding of the filter is tried again */
const SEED_RETRY_MS = 5_000;

const BEARER = /^Bearer ([\x21-\x7e]{1,200})$/;
const TICKET = /^[A-Za-z0-9_-]{1,64}$/;

/** The bearer token of the Authorization header; null without one (or a malformed one). */
export function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return header === undefined ? null : (BEARER.exec(header)?.[1] ?? null);
}

export default fp<{ config: GatewayConfig }>(
  async (app: FastifyInstance, { config }) => {
    const revokedChannel = `${config.channelPrefix}auth:revoked`;
    const issuedChannel = `${config.channelPrefix}auth:issued`;
    const log = app.log.child({ component: 'auth' });
    const validTokens = new ValidTokens(validTokenSourceOver(app.databases.auth), (err) =>
      log.warn({ err }, 'auth: the filter of valid tokens was not rebuilt; the one in use stays'),
    );
    const auth = createAuthService({
      store: authStoreOver(app.databases.auth),
      cacheMs: config.authCacheMs,
      sessionTtlDays: config.sessionTtlDays,
      announceRevoked: (tokenHash) => publish(app.redis, revokedChannel, tokenHash).then(() => {}),
      // valid, so in the filter already, but for a notice lost while no seeding followed
      found: (tokenHash) => validTokens.add(tokenHash),
      issued: (tokenHash) => {
        // in this gateway's filter before the token leaves it; the others' at the notice
        validTokens.add(tokenHash);
        publish(app.redis, issuedChannel, tokenHash).catch((err: unknown) =>
          log.warn({ err }, 'auth: a new token was not announced; the other gateways hold it at their next seeding'),
        );
      },
    });
    const subscriber = app.subscribers.auth;
    subscriber.on('message', (channel: string, tokenHash: string) => {
      if (channel === revokedChannel) auth.forget(tokenHash);
      else if (channel === issuedChannel) validTokens.add(tokenHash);
    });
    // connected before this plugin, so 'ready' is a reconnection: notices sent while the
    // subscription was down are lost, look every token up again and read the valid ones anew
    subscriber.on('ready', () => {
      auth.forgetAll();
      void seed();
    });
    // A seeding that fails (PostgreSQL away) is tried again until one succeeds: the filter in
    // use may miss the tokens whose notices were lost.
    let closing = false;
    let retry: NodeJS.Timeout | undefined;
    const seed = async (): Promise<void> => {
      try {
        await validTokens.reseed();
      } catch {
        if (closing) return;
        await new Promise<void>((resolve) => {
          retry = setTimeout(resolve, SEED_RETRY_MS);
          retry.unref();
        });
        if (!closing) return seed();
      }
    };
    // subscribed before the seeding reads PostgreSQL: a token issued meanwhile is in the rows
    // read or in a notice received, never in neither
    await subscriber.subscribe(revokedChannel, issuedChannel);
    // The start waits for the first seeding only so long: a large table is read on while the
    // gateway serves, every token looked up meanwhile (as before the brake), none refused.
    const seeded = seed();
    await Promise.race([seeded, new Promise((resolve) => setTimeout(resolve, SEED_START_WAIT_MS).unref())]);

    const failures = createFailureCounter(app, config);
    const ticketKey = (ticket: string) => `${config.channelPrefix}socket-ticket:${hashToken(ticket)}`;

    const principalOf = async (request: FastifyRequest, tokenHash: string): Promise<Principal> => {
      const blocked = failures.blockedFor(request.ip);
      if (blocked > 0 && !validTokens.mayHold(tokenHash)) {
        metrics.refused.inc({ limit: 'auth-failures' });
        throw new ApiError('RATE_LIMITED', `too many unknown tokens from this address; retry in ${blocked} s`, {
          retryAfterSeconds: blocked,
        });
      }
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
    app.decorate('authFailures', {
      blockedFor: failures.blockedFor,
      count: failures.count,
      mayBeValid: (tokenHash: string) => validTokens.mayHold(tokenHash),
    });
    app.addHook('onClose', async () => {
      closing = true;
      clearTimeout(retry);
      failures.close();
    });
  },
  { name: 'auth', dependencies: ['redis', 'databases'] },
);

/**
 * Unknown tokens per client address (an IPv6 client by its /64) and wrong trips per account,
 * counted in Redis across gateways (one key per address or account and window). A gateway that
 * sees one pass the limit refuses its lookups of tokens its filter does not hold until the
 * window ends: a flood of random tokens then costs no PostgreSQL lookup.
 */
function createFailureCounter(app: FastifyInstance, config: GatewayConfig) {
  const { max, windowMs } = config.authFailures;
  const blockedUntil = new Map<string, number>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, until] of blockedUntil) if (until <= now) blockedUntil.delete(key);
  }, windowMs);
  sweep.unref();
  const keysOf = (ip: string, account: string | undefined) =>
    account === undefined ? [`ip:${addressKey(ip)}`] : [`ip:${addressKey(ip)}`, `account:${account.toLowerCase()}`];
  const secondsLeft = (key: string): number => {
    const until = blockedUntil.get(key);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return Math.ceil(left / 1000);
    blockedUntil.delete(key);
    return 0;
  };
  const countKey = (counted: string): void => {
    const key = `${config.channelPrefix}auth-failures:${counted}`;
    app.redis
      .multi()
      .incr(key)
      .pexpire(key, windowMs, 'NX')
      .pttl(key)
      .exec()
      .then((results) => {
        const count = Number(results?.[0]?.[1] ?? 0);
        const ttl = Number(results?.[2]?.[1] ?? windowMs);
        if (count > max) blockedUntil.set(counted, Date.now() + (ttl > 0 ? ttl : windowMs));
      })
      .catch((err: unknown) => app.log.debug({ err }, 'auth: failure count not kept'));
  };
  return {
    /** seconds the address (and the account, when named) must wait, 0 when its unknown tokens may be looked up */
    blockedFor(ip: string, account?: string): number {
      return Math.max(...keysOf(ip, account).map(secondsLeft));
    },
    count(ip: string, account?: string): void {
      if (max === 0) return;
      for (const key of keysOf(ip, account)) countKey(key);
    },
    close(): void {
      clearInterval(sweep);
    },
  };
}
