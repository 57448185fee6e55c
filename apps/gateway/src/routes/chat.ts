/**
 * `POST /api/games/:id/chat`: the web client's way to write in a game's chat (domain/game-chat.ts),
 * beside lishogi's Bot and Board API routes, which only the game's players use. The lines reach
 * readers over the watch socket (watch-chat.ts). Who writes where, as lishogi: the players in
 * the players' room; anyone else with a player (a guest or an account) in the spectators'
 * room, and the players too once the game has ended.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChatBody, ChatLineWire, GameParams } from '@shogi/protocol';
import { ApiError } from '../domain/api-error.js';
import { checkChatText } from '../domain/chat-text.js';
import { chatRoomsFor } from '../domain/game-chat.js';
import { principalOf } from '../plugins/access.js';
import { ERROR_RESPONSES } from './error-responses.js';

const chat: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/games/:id/chat',
    {
      schema: {
        tags: ['games'],
        summary:
          "Write a line in the game's chat: room `player` (its players) or `spectator` (anyone else; its players once it has ended); plain text of at most 140 characters",
        params: GameParams,
        body: ChatBody,
        response: { 201: ChatLineWire, ...ERROR_RESPONSES },
      },
      config: app.limits.chat,
    },
    async (request, reply) => {
      const player = principalOf(request);
      const gameId = request.params.id;
      const { room } = request.body;
      const view = await app.games.view(gameId);
      const seated = view.players.sente.id === player.id || view.players.gote.id === player.id;
      if (!chatRoomsFor(seated, view.status === 'ended').includes(room))
        throw new ApiError(room === 'player' ? 'NOT_A_PLAYER' : 'SPECTATOR_ROOM_CLOSED');
      const text = checkChatText(request.body.text);
      if (!text.ok) throw new ApiError('BAD_REQUEST', text.reason);
      const line = {
        room,
        username: player.username ?? player.name,
        playerId: player.id,
        text: text.text,
        at: new Date().toISOString(),
      };
      await app.gameChat.write(gameId, line);
      return reply.code(201).send(line);
    },
  );
};

export default chat;
