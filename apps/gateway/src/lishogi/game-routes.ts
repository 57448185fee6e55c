/**
 * lishogi's game routes, registered twice: under `/api/bot/game` (the Bot API: bot accounts
 * only, `bot:play`) and under `/api/board/game` (the Board API: anyone but a bot,
 * `board:play`). A game stream, moves, resignation, abort, takebacks (Board API) and chat, each through the same
 * game service as the native routes. Answers and refusals are lishogi's: `{"ok":true}`,
 * `{"error"}` with 404 for a game that is not there or not the caller's and 400 for what the
 * game refuses (game-errors.ts), checked in lishogi's order: the game, then the account.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { GameView } from '@shogi/protocol';
import { isBotAccount } from '@shogi/store';
import { ApiError } from '../domain/api-error.js';
import type { Principal } from '../domain/auth.js';
import { checkChatText } from '../domain/chat-text.js';
import { principalOf } from '../plugins/access.js';
import { lishogiErrorHandlerWith } from './errors.js';
import { gameRouteStatus, verdictRefusal } from './game-errors.js';
import { ChatBody, ChatHistory, GameIdParams, MoveParams, MoveQuery, TakebackParams } from './game-schemas.js';
import { lishogiPlayers, streamGame } from './game-stream.js';
import type { NdjsonStream } from './ndjson.js';
import { LISHOGI_ERRORS, OK, Ok as OkResponse } from './schemas.js';
import { seatedBots } from './seated-bots.js';
import { VERDICT_WAIT_MS, watchVerdicts } from './verdict-wait.js';

export interface GameRoutesOptions {
  readonly api: 'bot' | 'board';
}

const gameRoutes: FastifyPluginAsyncTypebox<GameRoutesOptions> = async (app, { api }) => {
  const tags = ['lishogi'];
  app.setErrorHandler(lishogiErrorHandlerWith(gameRouteStatus));
  // a path under this prefix that names no route (a USI past the router's parameter length) is
  // answered in lishogi's shape too
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'No such route', code: 'NOT_FOUND' }));
  // every route checks the player's seat before the account (lishogi's order), as seatedBots needs
  const isBot = seatedBots((playerId) => isBotAccount(app.databases.games, playerId));
  /** The Bot API is for bot accounts, the Board API for everyone else; only for a player seated in the game. */
  const checkAccount = async (player: Principal) => {
    const bot = await isBot(player.id);
    if (api === 'bot' && !bot) throw new ApiError('BOT_ACCOUNT_REQUIRED');
    if (api === 'board' && bot) throw new ApiError('NOT_FOR_BOT_ACCOUNTS');
  };
  const checkSeat = (view: GameView, player: Principal) => {
    if (view.players.sente.id !== player.id && view.players.gote.id !== player.id) throw new ApiError('NOT_A_PLAYER');
  };
  /** The game is there and the caller plays in it (404 else), with the right account (400 else). */
  const seated = async (gameId: string, player: Principal) => {
    await app.games.seatOf(gameId, player.id);
    await checkAccount(player);
  };

  // one stream per player and game on this gateway, as lishogi: a reconnecting client's
  // stream replaces the one it left, which may not have noticed yet that it was left
  const streams = new Map<string, NdjsonStream>();

  app.get(
    '/stream/:id',
    {
      schema: {
        tags,
        summary: `lishogi's ${api} game stream (NDJSON): gameFull, then gameState lines, chatLines and keep-alives; ends after the final state`,
        params: GameIdParams,
        produces: ['application/x-ndjson'],
        response: LISHOGI_ERRORS,
      },
    },
    async (request, reply) => {
      const player = principalOf(request);
      // every refusal before the first byte, as a JSON error
      const details = await app.games.details(request.params.id);
      checkSeat(details.view, player);
      await checkAccount(player);
      const players = await lishogiPlayers(app, details.view);
      // HEAD (routed here too) gets the headers only: a body would follow the game to its end
      if (request.method === 'HEAD') {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson' });
        reply.raw.end();
        return reply;
      }
      const key = `${details.view.id}:${player.id}`;
      streams.get(key)?.end();
      // counted with the player's sockets before the first byte (429 past a limit), ended when the token goes
      const release = app.authedSockets.openStream(request, () => stream.end());
      const stream = streamGame(app, reply, details, players, request.log);
      streams.set(key, stream);
      stream.onClose(() => {
        release();
        if (streams.get(key) === stream) streams.delete(key);
      });
      return reply;
    },
  );

  app.post(
    '/:id/move/:usi',
    {
      schema: {
        tags,
        summary:
          'Play a move (the USI in the path as is: 7g7f, 8h2b+, P*5e), or resign with `resign`; answers once the move is judged',
        params: MoveParams,
        querystring: MoveQuery,
        response: { 200: OkResponse, ...LISHOGI_ERRORS },
      },
      config: app.limits.moves,
    },
    async (request) => {
      const player = principalOf(request);
      const { id: gameId, usi } = request.params;
      if (usi === 'resign') {
        await seated(gameId, player);
        await app.games.resign(gameId, player);
        return OK;
      }
      const view = await app.games.view(gameId);
      checkSeat(view, player);
      await checkAccount(player);
      const verdicts = await watchVerdicts(
        app.hub,
        gameId,
        (seq) => app.games.eventsAfter(gameId, seq),
        VERDICT_WAIT_MS,
      );
      try {
        // lishogi's move carries no ply: it is judged against the game as it stands
        const blur = request.query.blur === 'true';
        const { seq } = await app.games.submitMove(gameId, player, { usi, ply: view.ply, blur });
        const verdict = await verdicts.of(seq, VERDICT_WAIT_MS);
        if (verdict !== null && !verdict.accepted)
          throw new ApiError(verdictRefusal(verdict.reason), `${usi}: ${verdict.reason ?? 'refused'}`);
      } finally {
        verdicts.close();
      }
      request.log.debug({ gameId, playerId: player.id, usi }, 'lishogi move played');
      return OK;
    },
  );

  for (const action of ['resign', 'abort'] as const) {
    app.post(
      `/:id/${action}`,
      {
        schema: {
          tags,
          summary: action === 'resign' ? 'Resign the game' : 'Abort the game before your first move',
          params: GameIdParams,
          response: { 200: OkResponse, ...LISHOGI_ERRORS },
        },
        config: app.limits.moves,
      },
      async (request) => {
        const player = principalOf(request);
        const gameId = request.params.id;
        await seated(gameId, player);
        if (action === 'resign') await app.games.resign(gameId, player);
        else await app.games.abort(gameId, player);
        return OK;
      },
    );
  }

  app.post(
    '/:id/berserk',
    {
      schema: {
        tags,
        summary:
          "Berserk in an arena game before your first move: your main time halved, a win of 7 moves or more scores one more point (lishogi's)",
        params: GameIdParams,
        response: { 200: OkResponse, ...LISHOGI_ERRORS },
      },
      config: app.limits.moves,
    },
    async (request) => {
      const player = principalOf(request);
      const gameId = request.params.id;
      await seated(gameId, player);
      await app.tournamentBerserk(gameId, player);
      return OK;
    },
  );

  // lishogi has takebacks on the Board API only, as lichess: a bot never asks for one
  if (api === 'board')
    app.post(
      '/:id/takeback/:accept',
      {
        schema: {
          tags,
          summary: "Propose a takeback or accept your opponent's (`yes`), or decline it or withdraw your own (`no`)",
          params: TakebackParams,
          response: { 200: OkResponse, ...LISHOGI_ERRORS },
        },
        config: app.limits.moves,
      },
      async (request) => {
        const player = principalOf(request);
        const { id: gameId, accept } = request.params;
        await seated(gameId, player);
        const view = await app.games.view(gameId);
        const mine = view.players.sente.id === player.id ? 'sente' : 'gote';
        // `yes` proposes unless the opponent's proposal is pending, which it accepts (lichess's takeback-yes)
        const action =
          accept === 'no' ? 'decline' : view.takeback !== null && view.takeback !== mine ? 'accept' : 'propose';
        await app.games.takeback(gameId, player, action);
        return OK;
      },
    );

  app.post(
    '/:id/chat',
    {
      schema: {
        tags,
        summary: `Write in the game's chat (form-encoded or JSON: room player|spectator, text of at most 140 characters)`,
        params: GameIdParams,
        body: ChatBody,
        response: { 200: OkResponse, ...LISHOGI_ERRORS },
      },
      config: app.limits.chat,
    },
    async (request) => {
      const player = principalOf(request);
      const gameId = request.params.id;
      await seated(gameId, player);
      const text = checkChatText(request.body.text);
      if (!text.ok) throw new ApiError('BAD_REQUEST', text.reason);
      const username = player.username ?? player.name;
      await app.gameChat.write(gameId, {
        room: request.body.room,
        username,
        playerId: player.id,
        text: text.text,
        at: new Date().toISOString(),
      });
      return OK;
    },
  );

  app.get(
    '/:id/chat',
    {
      schema: {
        tags,
        summary: "The players' chat of the game, oldest line first",
        params: GameIdParams,
        response: { 200: ChatHistory, ...LISHOGI_ERRORS },
      },
    },
    async (request) => {
      const player = principalOf(request);
      await seated(request.params.id, player);
      const lines = await app.gameChat.recent(request.params.id, 'player');
      return lines.map((line) => ({ text: line.text, user: line.username }));
    },
  );
};

export default gameRoutes;
