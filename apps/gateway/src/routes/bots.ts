import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EnginePresence } from '@shogi/engine-bots';
import { AuthHeaders, BotGameBody, BotList, type EngineStatus, GameParams, GameView } from '@shogi/protocol';
import { ApiError } from '../domain/api-error.js';
import type { BotRegistry } from '../domain/bots.js';
import { checkTerms } from '../domain/lobby/checks.js';
import { principalOf } from '../plugins/access.js';
import { ERROR_RESPONSES } from './error-responses.js';

export interface BotRoutesOptions {
  readonly bots: BotRegistry;
  /** the running engine role's announcement in Redis, or null when none runs */
  readonly engine: () => Promise<EnginePresence | null>;
}

/** What a client is told of the engine: without one every level plays built-in moves. */
const engineStatus = (presence: EnginePresence | null): EngineStatus =>
  presence === null ? { running: false } : { running: true, name: presence.engineName };

const bots: FastifyPluginAsyncTypebox<BotRoutesOptions> = async (app, { bots, engine }) => {
  app.get(
    '/api/bots',
    {
      schema: {
        tags: ['bots'],
        summary:
          'The bots you can play against, and whether an engine runs (engine.running false: the house levels play built-in moves)',
        response: { 200: BotList },
      },
    },
    async () => ({ bots: bots.list(), engine: engineStatus(await engine().catch(() => null)) }),
  );

  app.post(
    '/api/bots/:id/games',
    {
      schema: {
        tags: ['bots'],
        summary:
          'Start an unrated game against a bot (Authorization: Bearer), with an optional clock and handicap; the bot answers every move. A real-time one (byoyomi, Fischer) is refused with 409 ALREADY_PLAYING while you play one. Limited per token and per client IP (RATE_LIMIT_BOT_GAMES_MAX, RATE_LIMIT_BOT_GAMES_IP_MAX)',
        params: GameParams,
        headers: AuthHeaders,
        body: BotGameBody,
        response: { 201: GameView, ...ERROR_RESPONSES },
      },
      // per address before the token is looked up, so a flood costs no query
      config: app.limits.botGamesPerIp,
    },
    async (request, reply) => {
      const player = principalOf(request);
      await app.consumeLimit('botGames', request, reply);
      const bot = bots.get(request.params.id);
      if (!bot) throw new ApiError('NOT_FOUND', 'no such bot');
      const join = bot.join?.bind(bot);
      if (join === undefined) throw new ApiError('NOT_FOUND', `${bot.name} plays only casual seeks nobody takes`);
      const { timeControl, handicap } = request.body;
      // bot games are casual: checked as an unrated challenge's terms
      if (timeControl !== undefined) checkTerms(timeControl, false);
      const wanted = request.body.side ?? 'sente';
      const side = wanted === 'random' ? (Math.random() < 0.5 ? 'sente' : 'gote') : wanted;
      const botPlayer = bot.playerId ?? bot.id;
      const [sente, gote] = side === 'sente' ? [player.id, botPlayer] : [botPlayer, player.id];
      // the lobby's one-real-time-game rule, for the person only: a bot plays many games at once
      const game = await app.lobby.startAlone(player.id, timeControl, () =>
        app.games.createGame({
          sente,
          gote,
          rated: false,
          ...(timeControl === undefined ? {} : { timeControl }),
          ...(handicap === undefined ? {} : { handicap }),
        }),
      );
      join(game);
      request.log.debug({ gameId: game.id, bot: bot.id, playerId: player.id }, 'bot game created');
      return reply.code(201).send(game);
    },
  );
};

export default bots;
