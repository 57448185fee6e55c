/**
 * Enforces the access table (../access.ts) on every route registered after this plugin: an
 * `onRequest` hook, so the token and its scope are checked before anything else about the
 * request (its body, its parameters, the game's rules). The route finds the caller in
 * `request.principal`. The hook also writes the access into the route's OpenAPI entry, and a
 * route missing from the table stops the gateway at startup.
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { type Access, accessOf, scopesMeeting } from '../access.js';
import { ApiError } from '../domain/api-error.js';
import type { Principal } from '../domain/auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the access check on every route that needs a token */
    principal: Principal | null;
  }
}

/** The caller of a route whose access needs a token. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error(`${request.routeOptions.url} has no principal: it is public`);
  return request.principal;
}

/** Throws the catalog's 403 unless the principal's token meets the access. */
export function checkAccess(principal: Principal, access: Exclude<Access, 'public' | 'token'>): void {
  const { kind, scopes } = principal.token;
  switch (access) {
    case 'session':
      if (kind !== 'session') throw new ApiError('SESSION_REQUIRED');
      return;
    case 'guest':
      if (kind !== 'guest') throw new ApiError('GUEST_TOKEN_REQUIRED');
      return;
    case 'admin':
      if (!scopes.includes('admin')) throw new ApiError('ADMIN_REQUIRED');
      return;
    case 'mod':
      if (!scopes.includes('mod')) throw new ApiError('MOD_REQUIRED');
      return;
    default: {
      const meeting = scopesMeeting(access);
      if (!meeting.some((scope) => (scopes as readonly string[]).includes(scope)))
        throw new ApiError('INSUFFICIENT_SCOPE', `needs the ${meeting.join(' or ')} scope`);
    }
  }
}

const describe: Readonly<Record<Access, string>> = {
  public: 'No token needed.',
  token: 'Any valid token.',
  read: 'A token with the `read` scope.',
  play: 'A token with the `play` scope.',
  admin: 'A token with the `admin` scope (minted only by the operator CLI `npm run admin:token`).',
  mod: 'A token with the `mod` scope (minted only by the operator CLI `npm run admin:token -- USERNAME --scope mod`).',
  'bot:play': "A token with lishogi's `bot:play` scope, of a bot account.",
  'board:play': "A token with lishogi's `board:play` scope.",
  'challenge:read': "A token with lishogi's `challenge:read`, `bot:play` or `board:play` scope.",
  'challenge:write': "A token with lishogi's `challenge:write`, `bot:play` or `board:play` scope.",
  'tournament:write': "A token with lichess's `tournament:write` scope, or `play`, `bot:play` or `board:play`.",
  session: 'A session token (`POST /api/session`).',
  guest: "A guest player's token (`POST /api/players`).",
};

export default fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('principal', null);

    const guard =
      (access: Access, socket: boolean): onRequestHookHandler =>
      async (request) => {
        // a token in a URL ends up in proxy logs and browser history: refused, even where
        // no token is needed, so the client learns to stop sending it
        const query = request.query as Record<string, unknown> | undefined;
        if (query !== undefined && query !== null && Object.hasOwn(query, 'token')) throw new ApiError('TOKEN_IN_URL');
        if (access === 'public') return;
        const principal = await app.authenticate(request, { socket });
        if (access !== 'token') checkAccess(principal, access);
        request.principal = principal;
      };

    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = [route.method].flat();
      const socket = (route as { websocket?: boolean }).websocket === true;
      const accesses = new Set<Access>();
      for (const method of methods) {
        const access = accessOf(method, route.url);
        if (access === undefined)
          throw new Error(`${method} ${route.url} has no entry in ROUTE_ACCESS (apps/gateway/src/access.ts)`);
        accesses.add(access);
      }
      const [access] = accesses;
      if (access === undefined || accesses.size > 1) throw new Error(`${route.url}: one access for all its methods`);
      const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
      route.onRequest = [guard(access, socket), ...own];
      if (route.schema?.hide === true) return;
      const tokenHeader = access === 'public' ? {} : { security: [{ bearer: [] }] };
      route.schema = {
        ...route.schema,
        ...tokenHeader,
        description: [route.schema?.description, `Access: ${describe[access]}`].filter(Boolean).join('\n\n'),
        'x-access': access,
      } as unknown as NonNullable<RouteOptions['schema']>;
    });
  },
  { name: 'access', dependencies: ['auth'] },
);
