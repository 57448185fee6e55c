/**
 * lishogi's account routes: the account of the token (`GET /api/account`), its ongoing games
 * (`GET /api/account/playing`), and the upgrade of an account that has played no game to a
 * bot account, for good (`POST /api/bot/account/upgrade`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { GameView } from '@shogi/protocol';
import { accountSummary, listGames, upgradeToBot } from '@shogi/store';
import { ApiError } from '../domain/api-error.js';
import { principalOf } from '../plugins/access.js';
import { byUrgency, lishogiAccount } from './account-shapes.js';
import { shaper } from './cards.js';
import { originOf } from './origin.js';
import { LISHOGI_ERRORS, LishogiAccount, NowPlaying, NowPlayingQuery, Ok } from './schemas.js';

/** lishogi's default and most games of `GET /api/account/playing`. */
const PLAYING_DEFAULT = 9;
const PLAYING_MAX = 50;
/** ongoing games read to choose the most urgent from */
const PLAYING_READ = 200;

const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reads = app.databases.reads;

  app.get(
    '/api/account',
    {
      schema: {
        tags: ['lishogi'],
        summary: 'The account of the token, as lishogi gives it: `title: "BOT"` for a bot account',
        response: { 200: LishogiAccount, ...LISHOGI_ERRORS },
      },
    },
    async (request) => {
      const summary = await accountSummary(reads, principalOf(request).id, new Date());
      if (summary === undefined) throw new ApiError('PLAYER_NOT_FOUND');
      return lishogiAccount(summary, originOf(request));
    },
  );

  app.get(
    '/api/account/playing',
    {
      schema: {
        tags: ['lishogi'],
        summary: "The token's player's ongoing games, most urgent first (its turn, then the least time left)",
        querystring: NowPlayingQuery,
        response: { 200: NowPlaying, ...LISHOGI_ERRORS },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const nb = Math.min(PLAYING_MAX, Number(request.query.nb ?? PLAYING_DEFAULT));
      const rows = await listGames(reads, { status: 'ongoing', playerId: player.id, limit: PLAYING_READ });
      const views = await Promise.all(rows.map((row) => app.games.view(row.id).catch(() => null)));
      // the games table may lag the log by a moment: a game ended meanwhile is not listed
      const ongoing = views.filter((v): v is GameView => v !== null && v.status === 'ongoing');
      const shape = shaper(reads, originOf(request));
      const entries = await Promise.all(ongoing.map((game) => shape.game(game, player.id)));
      return { nowPlaying: entries.sort(byUrgency).slice(0, nb) };
    },
  );

  app.post(
    '/api/bot/account/upgrade',
    {
      config: app.limits.lobby,
      schema: {
        tags: ['lishogi'],
        summary:
          'Make the account a bot account, for good: only before it has played any game (400 BOT_UPGRADE_REFUSED); again: ok',
        response: { 200: Ok, ...LISHOGI_ERRORS },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const outcome = await upgradeToBot(app.databases.lobby, player.id, new Date());
      switch (outcome) {
        case 'upgraded':
          request.log.info({ playerId: player.id }, 'account upgraded to a bot account');
          return { ok: true } as const;
        case 'already':
          return { ok: true } as const;
        case 'has-games':
          throw new ApiError('BOT_UPGRADE_REFUSED', 'this account has played games');
        case 'no-account':
          throw new ApiError('BOT_UPGRADE_REFUSED', 'a guest player has no account');
        default:
          return outcome satisfies never;
      }
    },
  );
};

export default accountRoutes;
