/**
 * Swiss events over HTTP, in lichess's shapes (lichess-org/api `swiss-tournaments`) with
 * lishogi's clock fields: create, read, join, withdraw, schedule the next round, terminate, the
 * results with tie-breaks as NDJSON, and the event as TRF. A Swiss is a tournament stream of
 * format `swiss`: the routes hand commands to the same handler, and the director pairs its rounds.
 */

import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { metrics } from '@shogi/metrics';
import { botAccountsAmong, playersNamedIn, tournamentRow } from '@shogi/store';
import {
  currentSwissRound,
  nextSwissRoundAt,
  pairSwissRound,
  readSwissTrf,
  swissStandingsOf,
  swissTrf,
  type TournamentCommandHandler,
  type TournamentCommandRequest,
  type TournamentState,
} from '@shogi/tournament';
import { Type } from 'typebox';
import { ApiError } from '../domain/api-error.js';
import { principalOf } from '../plugins/access.js';
import { joinRequest, runCommand } from './commands.js';
import type { TournamentParams } from './params.js';
import { newTournamentId } from './routes.js';
import { parseSwissParams } from './swiss-params.js';
import { tournamentView } from './views.js';

const closed = { additionalProperties: false } as const;
const open = { additionalProperties: true } as const;
const Scalar = Type.Union([Type.String({ maxLength: 20_000 }), Type.Number(), Type.Boolean()]);
const maybe = (description: string) => Type.Optional(Type.Union(Scalar.anyOf, { description }));

const CreateBody = Type.Object(
  {
    name: maybe('2 to 30 characters'),
    'clock.limit': maybe('main time, seconds'),
    'clock.increment': maybe('seconds added per move (Fischer)'),
    'clock.byoyomi': maybe("byoyomi, seconds (lishogi's; not with an increment)"),
    'clock.periods': maybe('byoyomi periods, 1 to 5'),
    clock: Type.Optional(Type.Object({}, open)),
    nbRounds: maybe('3 to 100'),
    startsAt: maybe('the start, ms since the epoch (default: in 5 minutes)'),
    roundInterval: maybe('seconds between rounds (default 60); 99999999: the organiser starts each round'),
    rated: maybe('default true'),
    description: maybe('at most 600 characters'),
    password: maybe('players give it to join'),
    'conditions.minRating.rating': maybe('the least rating in the category to join'),
    'conditions.nbRatedGame.nb': maybe('the least number of rated games in the category'),
    conditions: Type.Optional(Type.Object({}, open)),
    forbiddenPairings: maybe('pairs never to meet: two usernames a line'),
  },
  closed,
);
const IdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9]{1,32}$' }) }, closed);
const TrfParams = Type.Object({ file: Type.String({ pattern: '^[A-Za-z0-9]{1,32}\\.trf$' }) }, closed);
const NbQuery = Type.Object({ nb: Type.Optional(Type.Integer({ minimum: 1, maximum: 20_000 })) }, closed);
const Ok = Type.Object({ ok: Type.Literal(true) }, closed);
const Any = Type.Object({}, open);

const bodiless = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

export interface SwissRoutesOptions {
  readonly handler: TournamentCommandHandler;
  readonly nudge: () => void;
}

const swissRoutes: FastifyPluginAsyncTypebox<SwissRoutesOptions> = async (app, { handler, nudge }) => {
  await app.register(formbody);
  const reads = app.databases.reads;

  const run = (id: string, request: TournamentCommandRequest) => runCommand(handler, id, request);

  const swissState = async (id: string): Promise<TournamentState> => {
    const state = await handler.current(id);
    if (state.terms?.format !== 'swiss') throw new ApiError('TOURNAMENT_NOT_FOUND');
    return state;
  };

  const view = async (id: string) => {
    const state = await swissState(id);
    const row = await tournamentRow(reads, id);
    if (row === undefined) throw new ApiError('TOURNAMENT_NOT_FOUND');
    const swiss = state.terms?.swiss;
    const next = nextSwissRoundAt(state);
    const {
      minutes: _minutes,
      finishesAt: _finishesAt,
      secondsToFinish: _s,
      ...rest
    } = tournamentView(row, new Date());
    return {
      ...rest,
      nbRounds: swiss?.nbRounds,
      round: currentSwissRound(state),
      roundInterval: swiss?.roundIntervalSeconds ?? null,
      ...(next === null
        ? {}
        : { nextRound: { at: next.toISOString(), in: Math.max(0, Math.ceil((next.getTime() - Date.now()) / 1000)) } }),
    };
  };

  app.post(
    '/api/swiss',
    {
      config: app.limits.lobby,
      preValidation: bodiless,
      schema: {
        tags: ['tournaments'],
        summary: "Create a Swiss with lichess's parameters (form or JSON); the Swiss",
        body: CreateBody,
        response: { 200: Any },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const id = newTournamentId();
      const parsed = parseSwissParams(request.body as TournamentParams, id, player.name, new Date());
      if (!parsed.ok) throw new ApiError(parsed.code, parsed.detail);
      await run(id, {
        type: 'CreateTournament',
        tournamentId: id,
        createdBy: { id: player.id, name: player.name },
        terms: parsed.value,
      });
      return view(id);
    },
  );

  app.get(
    '/api/swiss/:id',
    {
      schema: {
        tags: ['tournaments'],
        summary: 'A Swiss: its terms, the round, when the next is due',
        params: IdParams,
        response: { 200: Any },
      },
    },
    async (request) => view(request.params.id),
  );

  app.post(
    '/api/swiss/:id/join',
    {
      config: app.limits.lobby,
      preValidation: bodiless,
      schema: {
        tags: ['tournaments'],
        summary: 'Join (also after the start: paired from the next round), or come back after a withdrawal',
        params: IdParams,
        body: Type.Object({ password: maybe("the Swiss's password") }, closed),
        response: { 200: Ok },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const { id } = request.params;
      const state = await swissState(id);
      await run(id, await joinRequest(app.databases, id, state.terms!, player, request.body.password));
      nudge();
      return { ok: true as const };
    },
  );

  for (const [path, summary] of [
    ['withdraw', 'Leave: before the start, out of it; after it, not paired from the next round'],
    ['terminate', 'End the Swiss now (its creator)'],
  ] as const)
    app.post(
      `/api/swiss/:id/${path}`,
      {
        config: app.limits.lobby,
        preValidation: bodiless,
        schema: {
          tags: ['tournaments'],
          summary,
          params: IdParams,
          body: Type.Object({}, closed),
          response: { 200: Ok },
        },
      },
      async (request) => {
        const player = principalOf(request);
        const { id } = request.params;
        await swissState(id);
        await run(
          id,
          path === 'withdraw'
            ? { type: 'WithdrawFromTournament', playerId: player.id }
            : { type: 'TerminateTournament', by: player.id },
        );
        return { ok: true as const };
      },
    );

  app.post(
    '/api/swiss/:id/schedule-next-round',
    {
      config: app.limits.lobby,
      preValidation: bodiless,
      schema: {
        tags: ['tournaments'],
        summary: 'Its creator pairs the next round now (the last one over); `date` in the future is not taken yet',
        params: IdParams,
        body: Type.Object({ date: maybe('ms since the epoch: now or past') }, closed),
        response: { 200: Ok },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const { id } = request.params;
      const state = await swissState(id);
      if (state.createdBy?.id !== player.id) throw new ApiError('NOT_TOURNAMENT_CREATOR');
      const date = request.body.date === undefined ? null : Number(request.body.date);
      if (date !== null && (!Number.isFinite(date) || date > Date.now() + 1000))
        throw new ApiError('BAD_REQUEST', 'date: only now (or absent) is taken; a later round start is not supported');
      if (state.status !== 'started') throw new ApiError('CONFLICT', 'the Swiss is not running');
      if (state.playing.size > 0) throw new ApiError('CONFLICT', 'the last round is not over');
      const pairingStarted = performance.now();
      const proposed = pairSwissRound(state);
      if (proposed.length > 0)
        metrics.pairingSeconds.observe({ system: 'swiss' }, (performance.now() - pairingStarted) / 1000);
      if (proposed.length === 0) throw new ApiError('CONFLICT', 'no round left to pair');
      await run(id, {
        type: 'PairPlayers',
        pairings: proposed.map((p) => ({ ...p, gameId: randomUUID() })),
      });
      // the director creates the recorded games on its next tick
      nudge();
      return { ok: true as const };
    },
  );

  // the organiser's TRF comes as it is: only this route reads a text body
  app.addContentTypeParser(['text/plain', 'application/octet-stream'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/swiss/:id/trf',
    {
      bodyLimit: app.config.importMaxBytes,
      config: app.limits.lobby,
      schema: {
        tags: ['tournaments'],
        summary:
          'Its creator continues a Swiss paired elsewhere, before the start: the body a TRF (text/plain) whose players (each named by a username) join and whose rounds count as played; the next round is paired here. 400 INVALID_TRF with the reason',
        params: IdParams,
        body: {
          content: { 'text/plain': { schema: Type.String({ description: 'the TRF' }) } },
        },
        response: { 200: Any },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const { id } = request.params;
      const state = await swissState(id);
      if (state.createdBy?.id !== player.id) throw new ApiError('NOT_TOURNAMENT_CREATOR');
      const read = readSwissTrf(String(request.body), state.terms!.swiss!.nbRounds);
      if (!read.ok) throw new ApiError('INVALID_TRF', read.reason);
      const { players, cells, rounds, initialColor, forbidden } = read.value;
      const named = await playersNamedIn(
        app.databases.reads,
        players.map((p) => p.name),
      );
      const ids = players.map((p, i) => {
        const found = named.get(p.name.toLowerCase());
        if (found === undefined)
          throw new ApiError('INVALID_TRF', `player ${i + 1}: no player here is named "${p.name}"`);
        if (found === 'ambiguous')
          throw new ApiError('INVALID_TRF', `player ${i + 1}: several players are named "${p.name}"; give a username`);
        return found;
      });
      const bots = new Set(
        await botAccountsAmong(
          app.databases.reads,
          ids.map((p) => p.id),
        ),
      );
      if (bots.size > 0 && !state.terms!.botsAllowed)
        throw new ApiError('INVALID_TRF', 'the file names a bot account, and bots may not play this Swiss');
      const idOf = (n: number | null) => (n === null ? null : ids[n]!.id);
      await run(id, {
        type: 'ImportSwiss',
        by: player.id,
        players: ids.map((p, i) => ({ id: p.id, name: p.name, rating: players[i]!.rating, bot: bots.has(p.id) })),
        cells: cells.map((row) => row.map((c) => ({ ...c, opponent: idOf(c.opponent) }))),
        rounds,
        initialColor,
        forbidden: forbidden.map(([a, b]) => [ids[a]!.id, ids[b]!.id] as const),
      });
      return view(id);
    },
  );

  app.get(
    '/api/swiss/:id/results',
    {
      schema: {
        tags: ['tournaments'],
        summary:
          'The standings as NDJSON by rank: `{rank, points, tieBreak, tieBreaks, rating, username, id}` (tieBreak: Sonneborn-Berger)',
        params: IdParams,
        querystring: NbQuery,
      },
    },
    async (request, reply) => {
      const state = await swissState(request.params.id);
      const rows = swissStandingsOf(state).slice(0, request.query.nb ?? 20_000);
      reply.type('application/x-ndjson');
      return rows
        .map((r) => {
          const p = state.players.get(r.playerId)!;
          return `${JSON.stringify({
            rank: r.rank,
            points: r.points,
            tieBreak: r.tieBreaks['sonneborn-berger'],
            tieBreaks: r.tieBreaks,
            rating: p.rating,
            username: p.name,
            id: p.id,
            ...(p.bot ? { title: 'BOT' } : {}),
            ...(p.paused ? { absent: true } : {}),
          })}\n`;
        })
        .join('');
    },
  );

  app.get(
    '/swiss/:file',
    {
      schema: {
        tags: ['tournaments'],
        summary: "The Swiss as FIDE's TRF (`/swiss/{id}.trf`, as lichess serves it)",
        params: TrfParams,
      },
    },
    async (request, reply) => {
      const id = request.params.file.slice(0, -'.trf'.length);
      const state = await swissState(id);
      reply.type('text/plain; charset=utf-8');
      // between rounds, the next round's requested absences too: the file pairs as the server will
      const between =
        state.status !== 'finished' &&
        state.playing.size === 0 &&
        currentSwissRound(state) < (state.terms?.swiss?.nbRounds ?? 0);
      return swissTrf(state, { nextRound: between }).text;
    },
  );
};

export default swissRoutes;
