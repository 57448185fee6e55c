/**
 * Who may call each route: the one table the gateway enforces (plugins/access.ts, before
 * any other check of the request), documents (OpenAPI `security` and `x-access`, the README
 * and SECURITY.md) and tests (tests/integration/route-access.test.ts walks the OpenAPI
 * document). A route registered without an entry here stops the gateway at startup.
 */

/**
 * - `public`: no token needed (one sent is not looked at);
 * - `token`: any valid token;
 * - `read` / `play` / `admin` / `mod`: a token holding that scope;
 * - `bot:play` / `board:play` / `challenge:read` / `challenge:write` / `tournament:write`: a token holding that
 *   lishogi scope (the routes of lishogi's Bot and Board API, served at the same paths), or
 *   for the challenge ones another scope lishogi takes there (SCOPES_MEETING);
 * - `session`: a session token (a login), never a personal or guest one;
 * - `guest`: a guest player's token.
 */
export const ACCESS_LEVELS = [
  'public',
  'token',
  'read',
  'play',
  'admin',
  'mod',
  'bot:play',
  'board:play',
  'challenge:read',
  'challenge:write',
  'tournament:write',
  'session',
  'guest',
] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/**
 * The scopes that meet an access besides its own name, as lishogi has them: its challenge
 * routes and event stream also take `bot:play` and `board:play`
 * (`Scoped(_.Challenge.Write, _.Bot.Play, _.Board.Play)` in its controllers), so a bot or
 * board client reads and answers its challenges with the scope it plays with.
 */
export const SCOPES_MEETING = {
  'challenge:read': ['challenge:read', 'bot:play', 'board:play'],
  'challenge:write': ['challenge:write', 'bot:play', 'board:play'],
  // lichess's scope for creating and joining tournaments; this server's own play scope meets it too
  'tournament:write': ['tournament:write', 'play', 'bot:play', 'board:play'],
  // the web client's own play token berserks a tournament game over the Board API's route
  'board:play': ['board:play', 'play'],
} as const satisfies Partial<Record<Access, readonly Access[]>>;

/** The scopes a token may hold to meet a scope access: its own, or those of SCOPES_MEETING. */
export const scopesMeeting = (access: Access): readonly string[] =>
  (SCOPES_MEETING as Partial<Record<Access, readonly string[]>>)[access] ?? [access];

export const ROUTE_ACCESS = {
  'GET /health': 'public',

  'POST /api/players': 'public',
  'POST /api/accounts': 'public',
  'POST /api/session': 'public',
  'DELETE /api/session': 'session',
  'GET /api/me': 'token',
  'GET /api/account': 'token',
  'GET /api/account/playing': 'token',
  'POST /api/bot/account/upgrade': 'bot:play',
  'POST /api/me/token': 'guest',
  'POST /api/me/password': 'session',
  'GET /api/me/preferences': 'token',
  'POST /api/me/preferences': 'play',
  'POST /api/tokens': 'session',
  'GET /api/tokens': 'read',
  'DELETE /api/tokens/:id': 'session',
  'POST /api/socket-ticket': 'token',

  'POST /api/games': 'admin',

  'POST /api/report': 'play',
  'GET /api/mod/queue': 'mod',
  'POST /api/mod/:username/engine': 'mod',
  'DELETE /api/mod/:username/engine': 'mod',
  'GET /api/games/:id': 'public',
  'GET /api/games/:id/events': 'public',
  'POST /api/games/:id/moves': 'play',
  'POST /api/games/:id/resign': 'play',
  'POST /api/games/:id/abort': 'play',
  'POST /api/games/:id/impasse': 'play',
  'POST /api/games/:id/takeback': 'play',
  'POST /api/games/:id/takeback/accept': 'play',
  'POST /api/games/:id/takeback/decline': 'play',
  'GET /api/games/:id/ws': 'play',
  'GET /api/games/:id/watch': 'public',
  'GET /api/games/:id/stream': 'public',
  'POST /api/games/:id/analysis': 'play',
  'POST /api/games/:id/chat': 'play',
  'GET /api/games/:id/analysis': 'public',
  'POST /api/analysis/position': 'play',
  'GET /api/live': 'public',
  'GET /api/live/ws': 'public',

  'POST /api/seeks': 'play',
  'GET /api/seeks': 'public',
  'GET /api/seeks/:id': 'public',
  'DELETE /api/seeks/:id': 'play',
  'POST /api/challenges': 'play',
  'GET /api/challenges': 'read',
  'GET /api/challenges/:id': 'read',
  'POST /api/challenges/:id/accept': 'play',
  'POST /api/challenges/:id/decline': 'play',
  'DELETE /api/challenges/:id': 'play',
  'POST /api/games/:id/rematch': 'play',
  'GET /api/lobby/ws': 'play',
  'GET /api/stream/event': 'challenge:read',
  'POST /api/challenge/:username': 'challenge:write',
  'POST /api/challenge/:id/accept': 'challenge:write',
  'POST /api/challenge/:id/decline': 'challenge:write',
  'POST /api/challenge/:id/cancel': 'challenge:write',

  // tournaments in lichess's shapes (src/tournaments)
  'GET /api/tournament': 'public',
  'POST /api/tournament': 'tournament:write',
  'GET /api/tournament/:id': 'public',
  'POST /api/tournament/:id/join': 'tournament:write',
  'POST /api/tournament/:id/withdraw': 'tournament:write',
  'POST /api/tournament/:id/terminate': 'tournament:write',
  'GET /api/tournament/:id/results': 'public',
  'GET /api/tournament/:id/games': 'public',
  'GET /api/tournament/:id/arrangements': 'public',
  'POST /api/tournament/:id/arrangements/:arrangementId': 'tournament:write',
  'GET /api/tournament/:id/ws': 'public',
  'POST /api/swiss': 'tournament:write',
  'GET /api/swiss/:id': 'public',
  'POST /api/swiss/:id/join': 'tournament:write',
  'POST /api/swiss/:id/withdraw': 'tournament:write',
  'POST /api/swiss/:id/schedule-next-round': 'tournament:write',
  'POST /api/swiss/:id/terminate': 'tournament:write',
  'POST /api/swiss/:id/trf': 'tournament:write',
  'GET /api/swiss/:id/results': 'public',
  'GET /swiss/:file': 'public',

  // lishogi's Bot and Board API (src/lishogi)
  'GET /api/bot/game/stream/:id': 'bot:play',
  'POST /api/bot/game/:id/move/:usi': 'bot:play',
  'POST /api/bot/game/:id/resign': 'bot:play',
  'POST /api/bot/game/:id/abort': 'bot:play',
  'POST /api/bot/game/:id/berserk': 'bot:play',
  'POST /api/bot/game/:id/chat': 'bot:play',
  'GET /api/bot/game/:id/chat': 'bot:play',
  'GET /api/board/game/stream/:id': 'board:play',
  'POST /api/board/game/:id/move/:usi': 'board:play',
  'POST /api/board/game/:id/resign': 'board:play',
  'POST /api/board/game/:id/abort': 'board:play',
  'POST /api/board/game/:id/berserk': 'board:play',
  'POST /api/board/game/:id/takeback/:accept': 'board:play',
  'POST /api/board/game/:id/chat': 'board:play',
  'GET /api/board/game/:id/chat': 'board:play',

  'GET /api/bots': 'public',
  'POST /api/bots/:id/games': 'play',

  'GET /api/stats/results': 'public',
  'GET /api/stats/endings': 'public',
  'GET /api/stats/lengths': 'public',
  'GET /api/stats/openings': 'public',
  'GET /api/explorer/games': 'public',
  'GET /api/explorer/masters': 'public',
  'GET /api/explorer/player': 'public',
  'GET /api/stats/score-by-rating-difference': 'public',
  'GET /api/stats/players/:id': 'public',
  'GET /api/stats/players/:id/opponents': 'public',
  'GET /api/leaderboards/:category': 'public',
  'GET /api/players/:id': 'public',
  'GET /api/players/:id/ratings/:category/history': 'public',
  'GET /api/players/:id/games.ndjson': 'public',
  'GET /api/players/:id/games.csa': 'public',
  'GET /api/games/:id/record': 'public',
  'GET /api/games/:id/record.kif': 'public',
  'GET /api/games/:id/record.ki2': 'public',
  'GET /api/games/:id/record.csa': 'public',
  'GET /api/games/:id/record.sfen': 'public',
  'GET /api/games/:id.kif': 'public',
  'GET /api/games/:id.csa': 'public',
  'GET /api/games/:id.sfen': 'public',
  'GET /api/games/:id.kifu': 'public',
  'GET /api/games/:id.jkf': 'public',
  'GET /api/games/:id.ki2': 'public',
  'GET /api/games/export': 'public',
  // a player who can play (a guest, an account's session, a personal token with `play`), as
  // lishogi lets anyone who can play paste a game
  'POST /api/import': 'play',

  // the web client's pages and assets
  'GET /': 'public',
  'GET /*': 'public',
} as const satisfies Readonly<Record<string, Access>>;

/** The OpenAPI UI and document, registered by @fastify/swagger-ui: public, hidden from the document. */
const DOCS = /^\/docs(\/|$)/;

/**
 * The access of `METHOD url` (the route's pattern, as Fastify registers it); undefined when the
 * table has no entry. HEAD is answered by the GET route.
 */
export function accessOf(method: string, url: string): Access | undefined {
  if (DOCS.test(url)) return 'public';
  const verb = method === 'HEAD' ? 'GET' : method;
  return (ROUTE_ACCESS as Readonly<Record<string, Access>>)[`${verb} ${url}`];
}
