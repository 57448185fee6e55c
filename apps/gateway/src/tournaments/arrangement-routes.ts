/**
 * An arranged robin's games (lishogi's Robin): each open game of the Berger table with the times
 * its players proposed and the one agreed, and a player's proposal. Read from the tournament's
 * stream (the aggregate's `arrangementsOf`); the director pairs an agreed game once its time has
 * come, and forfeits at the window's end the games never played.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Arrangement, arrangementsOf, type TournamentCommandHandler } from '@shogi/tournament';
import { Type } from 'typebox';
import { ApiError } from '../domain/api-error.js';
import { principalOf } from '../plugins/access.js';
import { runCommand } from './commands.js';

const closed = { additionalProperties: false } as const;
const Any = Type.Object({}, { additionalProperties: true });
const IdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9]{1,32}$' }) }, closed);
const ArrangementParams = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9]{1,32}$' }),
    arrangementId: Type.String({ pattern: '^[0-9]{1,4}-[0-9]{1,3}$', description: '<round>-<board>' }),
  },
  closed,
);
const ProposeBody = Type.Object(
  {
    scheduledAt: Type.Optional(
      Type.Union([Type.Number(), Type.String({ maxLength: 20 }), Type.Null()], {
        description: 'the time proposed, ms since the epoch; null, empty or absent takes a proposal back',
      }),
    ),
  },
  closed,
);

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));

export function arrangementView(a: Arrangement, names: ReadonlyMap<string, string>) {
  const result = a.pairing?.result;
  return {
    id: a.id,
    round: a.round,
    sente: { id: a.sente, name: names.get(a.sente) ?? a.sente },
    gote: { id: a.gote, name: names.get(a.gote) ?? a.gote },
    proposals: { sente: ms(a.times.sente), gote: ms(a.times.gote) },
    scheduledAt: ms(a.times.scheduledAt),
    status:
      a.pairing === null
        ? a.times.scheduledAt === null
          ? 'open'
          : 'agreed'
        : result === undefined
          ? 'playing'
          : 'finished',
    ...(a.pairing === null || result?.forfeit ? {} : { gameId: a.pairing.gameId }),
    ...(result === undefined ? {} : { winner: result.winner, ...(result.forfeit ? { forfeit: true } : {}) }),
  };
}

export interface ArrangementRoutesOptions {
  readonly handler: TournamentCommandHandler;
  readonly nudge: () => void;
}

const arrangementRoutes: FastifyPluginAsyncTypebox<ArrangementRoutesOptions> = async (app, { handler, nudge }) => {
  await app.register(formbody);

  const viewsOf = async (state: Awaited<ReturnType<TournamentCommandHandler['current']>>) => {
    const names = new Map([...state.players.values()].map((p) => [p.id, p.name]));
    return arrangementsOf(state).map((a) => arrangementView(a, names));
  };

  app.get(
    '/api/tournament/:id/arrangements',
    {
      schema: {
        tags: ['tournaments'],
        summary:
          "An arranged round-robin's games once it has started: the times proposed and agreed, each game's state and result",
        params: IdParams,
        response: { 200: Any },
      },
    },
    async (request) => {
      const state = await handler.current(request.params.id);
      if (state.terms === null) throw new ApiError('TOURNAMENT_NOT_FOUND');
      return { arrangements: await viewsOf(state) };
    },
  );

  app.post(
    '/api/tournament/:id/arrangements/:arrangementId',
    {
      config: app.limits.lobby,
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        tags: ['tournaments'],
        summary:
          'Propose a time for one of your games in an arranged round-robin (within an hour of the opponent’s: agreed to theirs); the game',
        params: ArrangementParams,
        body: ProposeBody,
        response: { 200: Any },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const { id, arrangementId } = request.params;
      const raw = request.body.scheduledAt;
      let time: Date | null = null;
      if (raw !== undefined && raw !== null && raw !== '') {
        const n = typeof raw === 'number' ? raw : /^[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
        if (!Number.isSafeInteger(n))
          throw new ApiError('INVALID_ARRANGEMENT_TIME', 'scheduledAt must be ms since the epoch');
        time = new Date(n);
      }
      if ((await handler.current(id)).terms === null) throw new ApiError('TOURNAMENT_NOT_FOUND');
      const handled = await runCommand(handler, id, {
        type: 'ProposeArrangementTime',
        arrangementId,
        playerId: player.id,
        time,
      });
      nudge();
      const views = await viewsOf(handled.state);
      return views.find((a) => a.id === arrangementId);
    },
  );
};

export default arrangementRoutes;
