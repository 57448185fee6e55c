/**
 * The opening explorer (docs/explorer.md): lichess's explorer routes in shogi's words. Each
 * answer reads one bucket of the index (`/games`: games played here, `/masters`: imported
 * records) or, for `/player`, that player's latest games, then the games it names. Public,
 * limited per client address (RATE_LIMIT_EXPLORER_MAX), on the read pool.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type ExplorerRequest,
  type GameRef,
  NO_FILTER,
  notationOf,
  openingOf,
  type PositionStats,
  parseExplorerRequest,
} from '@shogi/explorer';
import {
  ErrorResponse,
  type ExplorerGame,
  ExplorerGamesQuery,
  ExplorerMastersQuery,
  ExplorerPlayerQuery,
  ExplorerResponse,
} from '@shogi/protocol';
import { explorerReader, gamesByRef, playerExplorer } from '@shogi/store';
import { ApiError } from '../domain/api-error.js';

const errors = { 400: ErrorResponse, 429: ErrorResponse };

function requestOf(query: Parameters<typeof parseExplorerRequest>[0]): ExplorerRequest {
  const parsed = parseExplorerRequest(query);
  if (!parsed.ok) throw new ApiError(parsed.code, parsed.reason);
  return parsed.value;
}

const explorer: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.databases.reads;
  // decoded runs kept between queries: the start position's bucket is read once, not per query
  const reader = explorerReader(db);

  /** The stats and the games they name, in the wire's shape. */
  async function respond(request: ExplorerRequest, stats: PositionStats) {
    const single = stats.moves.flatMap((m) => (m.game === null ? [] : [m.game]));
    const byRef = await gamesByRef(db, [
      ...stats.topGames.map((g) => g.ref),
      ...stats.recentGames.map((g) => g.ref),
      ...single,
    ]);
    const wire = (g: GameRef): ExplorerGame[] => {
      const info = byRef.get(g.ref);
      return info === undefined ? [] : [{ ...info, usi: g.usi }];
    };
    const opening = openingOf(request.path);
    return {
      sente: stats.sente,
      gote: stats.gote,
      draws: stats.draws,
      moves: stats.moves.map((m) => ({
        usi: m.usi,
        notation: notationOf(request, m.usi),
        sente: m.sente,
        gote: m.gote,
        draws: m.draws,
        averageRating: m.averageRating,
        game: m.game === null ? null : (wire({ ref: m.game, usi: m.usi })[0] ?? null),
      })),
      topGames: stats.topGames.flatMap(wire),
      recentGames: stats.recentGames.flatMap(wire),
      opening: opening === null ? null : { name: opening.name, ja: opening.ja, line: opening.line },
    };
  }

  app.get(
    '/api/explorer/games',
    {
      config: app.limits.explorer,
      schema: {
        tags: ['explorer'],
        summary: 'Opening explorer over the games played here: the moves played from a position, with results',
        description:
          "lichess's /lichess explorer: sfen and play (USI, comma-separated) give the position; speeds, ratings (lichess's rating groups by their floor), since and until (YYYY-MM) filter; moves, topGames and recentGames size the lists. A 400 says why a word was refused.",
        querystring: ExplorerGamesQuery,
        response: { 200: ExplorerResponse, ...errors },
      },
    },
    async (req) => {
      const request = requestOf(req.query);
      return respond(request, await reader.stats(['played'], request.key, request.filter, request.limits));
    },
  );

  app.get(
    '/api/explorer/masters',
    {
      config: app.limits.explorer,
      schema: {
        tags: ['explorer'],
        summary: 'Opening explorer over the imported records (professional games with their events and dates)',
        description: "lichess's /masters explorer: sfen, play, since, until, moves, topGames.",
        querystring: ExplorerMastersQuery,
        response: { 200: ExplorerResponse, ...errors },
      },
    },
    async (req) => {
      const request = requestOf(req.query);
      const limits = { ...request.limits, recentGames: 0 };
      const filter = { ...NO_FILTER, since: request.filter.since, until: request.filter.until };
      return respond(request, await reader.stats(['imported'], request.key, filter, limits));
    },
  );

  app.get(
    '/api/explorer/player',
    {
      config: app.limits.explorer,
      schema: {
        tags: ['explorer'],
        summary: "Opening explorer over one player's games as one colour",
        description:
          "lichess's /player explorer, answered at once (not streamed): the player's latest 2,000 games of that colour, with the games' filters.",
        querystring: ExplorerPlayerQuery,
        response: { 200: ExplorerResponse, ...errors },
      },
    },
    async (req) => {
      const request = requestOf(req.query);
      const color = req.query.color as 'sente' | 'gote';
      return respond(
        request,
        await playerExplorer(db, req.query.player, color, request.key, request.filter, request.limits),
      );
    },
  );
};

export default explorer;
