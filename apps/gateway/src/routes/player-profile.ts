/**
 * A player's profile (ratings per category, results by colour, latest games) and rating
 * history, read from the ratings and statistics projections, on the read pool.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorResponse,
  PlayerProfile,
  PlayerProfileParams,
  PlayerProfileQuery,
  RatingHistory,
  RatingHistoryParams,
  RatingHistoryQuery,
} from '@shogi/protocol';
import { playerProfile, ratingHistory } from '@shogi/store';
import { ApiError } from '../domain/api-error.js';

const playerProfileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.databases.reads;
  app.get(
    '/api/players/:id',
    {
      schema: {
        tags: ['players'],
        summary: "A player's profile: name, rating per category, results by colour, latest games",
        params: PlayerProfileParams,
        querystring: PlayerProfileQuery,
        response: { 200: PlayerProfile, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const profile = await playerProfile(db, request.params.id);
      if (profile === null) throw new ApiError('PLAYER_NOT_FOUND');
      return profile;
    },
  );

  app.get(
    '/api/players/:id/ratings/:category/history',
    {
      schema: {
        tags: ['players'],
        summary: "A player's rating after each rated game of a category, oldest first",
        params: RatingHistoryParams,
        querystring: RatingHistoryQuery,
        response: { 200: RatingHistory, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { id, category } = request.params;
      const points = await ratingHistory(db, id, category, Number(request.query.limit ?? 1000));
      // an empty history is a player without rated games here, or no player at all
      if (points.length === 0 && (await playerProfile(db, id, 1)) === null) throw new ApiError('PLAYER_NOT_FOUND');
      return { playerId: id, category, points };
    },
  );
};

export default playerProfileRoutes;
