/**
 * Request rate limits (@fastify/rate-limit) counted in Redis, so a limit holds across
 * every gateway. Nothing is limited globally: a route opts in with `config: app.limits.X`
 * (`X`: auth, guests, botGamesPerIp, lobbyPerIp, exports and explorer per client IP, an IPv6 client by its /64;
 * lobby, botGames, analysis, positionAnalysis, chat and imports per account, never per token,
 * as an account may hold many; moves per token; each per IP without a principal), or counts
 * with `consumeLimit` where a second key applies. A route limited by `lobby` is counted by
 * `lobbyPerIp` too, one limited by `positionAnalysis` by `positionAnalysisPerIp`: it passes
 * only under both. Each route counts apart, but the chat's routes share one count. Above the
 * limit: 429 RATE_LIMITED with Retry-After (seconds). A
 * limit whose max is 0 is off.
 */

import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { metrics } from '@shogi/metrics';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayConfig, RateLimits } from '../config.js';
import { ApiError } from '../domain/api-error.js';
import { hashToken } from '../domain/auth.js';
import { addressKey } from '../domain/client-address.js';
import { tokenOf } from './auth.js';

/** What a route puts in its `config` to be limited (or `{ rateLimit: false }` when the limit is off). */
export interface RouteLimit {
  readonly rateLimit: RateLimitOptions | false;
  /** a second limit the route's requests count against, by its own key (consumeLimit) */
  readonly alsoLimit?: keyof RateLimits;
}

/**
 * The limits whose routes share one count: a chat line is one line whichever front end wrote
 * it (the web client's route, lishogi's bot and board routes); the other limits count per route.
 */
const SHARED: ReadonlySet<keyof RateLimits> = new Set(['chat']);

/** The limits counted by a second key as well: the account's limit, then its address's. */
const ALSO: Partial<Record<keyof RateLimits, keyof RateLimits>> = {
  lobby: 'lobbyPerIp',
  positionAnalysis: 'positionAnalysisPerIp',
};

declare module 'fastify' {
  interface FastifyInstance {
    limits: Readonly<Record<keyof RateLimits, RouteLimit>>;
    /**
     * Counts one action against a limit outside a route's config (a WebSocket frame, a
     * route's second key); throws RATE_LIMITED, with the seconds to wait in its detail, above
     * the limit, and sets Retry-After on `reply` when there is one.
     */
    consumeLimit(name: keyof RateLimits, request: FastifyRequest, reply?: FastifyReply): Promise<void>;
  }
}

const byIp = (request: FastifyRequest) => `ip:${addressKey(request.ip)}`;
/**
 * the token's hash, never the token: these keys are Redis keys. A socket opened with a ticket
 * has no header: its principal, known by then, holds the hash.
 */
const byToken = (request: FastifyRequest) => {
  const token = tokenOf(request);
  const hash = request.principal?.tokenHash ?? (token === null ? null : hashToken(token));
  return hash === null ? byIp(request) : `t:${hash.slice(0, 32)}`;
};
/** the principal's player, whichever of its tokens it came with (the access check ran first) */
const byAccount = (request: FastifyRequest) =>
  request.principal === null ? byToken(request) : `a:${request.principal.id}`;

export default fp<{ config: GatewayConfig }>(
  async (app: FastifyInstance, { config }) => {
    await app.register(rateLimit, {
      global: false,
      redis: app.redis,
      // per test file and per deployment, like the pub/sub channels
      nameSpace: `${config.channelPrefix}rate-limit:`,
      // a Redis outage does not stop play (the queue needs Redis anyway and will say so)
      skipOnError: true,
      errorResponseBuilder: (_request, context) => new ApiError('RATE_LIMITED', `retry in ${context.after}`),
    });
    const keys: Record<keyof RateLimits, (r: FastifyRequest) => string> = {
      auth: byIp,
      moves: byToken,
      lobby: byAccount,
      lobbyPerIp: byIp,
      guests: byIp,
      botGames: byAccount,
      botGamesPerIp: byIp,
      analysis: byAccount,
      positionAnalysis: byAccount,
      positionAnalysisPerIp: byIp,
      chat: byAccount,
      imports: byAccount,
      exports: byIp,
      explorer: byIp,
      reports: byAccount,
    };
    const names = Object.keys(keys) as (keyof RateLimits)[];
    // the bots this server runs play many games at once on one token each: the limits meant
    // for clients would throttle every game they play
    const ownBot = (r: FastifyRequest) => r.principal !== null && app.runsBot(r.principal.id);
    const options = (name: keyof RateLimits): RouteLimit => {
      // the plugin keys a route's count by the route: a shared limit counts with consumeLimit's one counter
      if (SHARED.has(name)) return { rateLimit: false, alsoLimit: name };
      const limit = config.rateLimits[name];
      const also = ALSO[name];
      return {
        rateLimit:
          limit.max === 0
            ? false
            : {
                max: limit.max,
                timeWindow: limit.windowMs,
                keyGenerator: keys[name],
                allowList: (r) => ownBot(r),
                errorResponseBuilder: (_request, context) => {
                  metrics.refused.inc({ limit: name });
                  return new ApiError('RATE_LIMITED', `retry in ${context.after}`);
                },
              },
        ...(also === undefined ? {} : { alsoLimit: also }),
      };
    };
    app.decorate(
      'limits',
      Object.fromEntries(names.map((name) => [name, options(name)])) as Record<keyof RateLimits, RouteLimit>,
    );
    // the second key of a route's limit, counted after the first (both run after the access
    // check, which comes first on every route): a request passes only when both allow it
    app.addHook('onRoute', (route) => {
      const also = (route.config as Partial<RouteLimit> | undefined)?.alsoLimit;
      if (also === undefined) return;
      const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
      route.onRequest = [...own, async (request, reply) => app.consumeLimit(also, request, reply)];
    });
    // counters of socket frames and of routes' second keys, apart from the routes' own
    // (which are keyed by route)
    const checks = new Map<keyof RateLimits, ReturnType<FastifyInstance['createRateLimit']>>();
    for (const name of names) {
      const { max, windowMs } = config.rateLimits[name];
      if (max === 0) continue;
      const keyGenerator = (r: FastifyRequest) => `socket-${name}:${keys[name](r)}`;
      checks.set(name, app.createRateLimit({ max, timeWindow: windowMs, keyGenerator }));
    }
    app.decorate('consumeLimit', async (name: keyof RateLimits, request: FastifyRequest, reply?: FastifyReply) => {
      const check = checks.get(name);
      if (check === undefined || ownBot(request)) return;
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        reply?.header('retry-after', String(result.ttlInSeconds));
        metrics.refused.inc({ limit: name });
        throw new ApiError('RATE_LIMITED', `retry in ${result.ttlInSeconds} s`);
      }
    });
  },
  { name: 'rate-limit', dependencies: ['redis'] },
);
