/**
 * `POST /api/games/:id/analysis` asks the engine role to analyse an ended game (once per game
 * and engine setting); `GET` answers the game's most recently requested analysis as it
 * stands, while it runs too, or else the players' own (their engines' move comments). Watchers of the game get its progress as `analysis` frames.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AnalysisResponse, AuthHeaders, ErrorResponse, GameParams } from '@shogi/protocol';
import { Type } from 'typebox';
import { principalOf } from '../plugins/access.js';
import { ERROR_RESPONSES } from './error-responses.js';

const analysis: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/games/:id/analysis',
    {
      schema: {
        tags: ['analysis'],
        summary:
          "Ask the server's engine to analyse an ended game (409 GAME_NOT_ENDED before; 503 ENGINE_UNAVAILABLE without an engine); 202 with the analysis as GET answers it. Asking again for a game analysed or being analysed with the same engine setting queues nothing; a failed one is queued again. Limited per token (RATE_LIMIT_ANALYSIS_MAX)",
        security: [{ bearer: [] }],
        params: GameParams,
        headers: AuthHeaders,
        response: { 202: AnalysisResponse, ...ERROR_RESPONSES, 503: ErrorResponse },
      },
      config: app.limits.analysis,
    },
    async (request, reply) => {
      const gameId = request.params.id;
      const answer = await app.analysis.request(gameId);
      request.log.info({ gameId, playerId: principalOf(request).id, status: answer.status }, 'analysis requested');
      return reply.code(202).send(answer);
    },
  );

  app.get(
    '/api/games/:id/analysis',
    {
      schema: {
        tags: ['analysis'],
        summary:
          "The game's most recently requested analysis: status, engine and depth, and per position the score (sente's side), the engine's best move and line, and the judgment of the move that led there. Without one, the players' analysis: what their engines said in comments on their moves (a CSA engine's `'* score line`), at the commented positions, unjudged. `source=server` or `source=players` asks for one of them; 404 ANALYSIS_NOT_FOUND when there is none",
        params: GameParams,
        querystring: Type.Object(
          {
            source: Type.Optional(
              Type.Union([Type.Literal('server'), Type.Literal('players')], {
                description: "server: the server's engine only; players: the players' engines' comments only",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: AnalysisResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => app.analysis.read(request.params.id, request.query.source),
  );
};

export default analysis;
