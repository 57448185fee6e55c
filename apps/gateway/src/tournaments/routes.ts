/**
 * Tournaments over HTTP, in lichess's shapes (lichess-org/api `arena-tournaments`) with
 * lishogi's clock fields: list, create, read with standings, join, withdraw, terminate, the
 * results and the games as NDJSON. Bodies form-encoded or JSON, as lichess takes them; errors
 * in this server's catalog. The routes only read the projections and hand commands to the
 * tournament command handler; the director (director.ts) does the rest.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { standingRows, tournamentGameRows, tournamentRow, tournamentsByStatus } from '@shogi/store';
import type { TournamentCommandHandler, TournamentCommandRequest, TournamentTerms } from '@shogi/tournament';
import { Type } from 'typebox';
import { ApiError } from '../domain/api-error.js';
import { attachment, CSA_VERSIONS, type CsaVersion } from '../domain/record-downloads.js';
import { principalOf } from '../plugins/access.js';
import { joinRequest, runCommand } from './commands.js';
import { recordsContentType, TOURNAMENT_RECORD_FORMATS, tournamentRecords } from './game-records.js';
import { parseTournamentParams, type TournamentParams } from './params.js';
import { resultLine, standingPlayer, tournamentView } from './views.js';

const closed = { additionalProperties: false } as const;
const open = { additionalProperties: true } as const;
const Scalar = Type.Union([Type.String({ maxLength: 2000 }), Type.Number(), Type.Boolean()]);
const maybe = (description: string) => Type.Optional(Type.Union(Scalar.anyOf, { description }));

const CreateBody = Type.Object(
  {
    name: maybe('2 to 30 characters'),
    clockTime: maybe('main time, minutes (0.25 for 15 s)'),
    clockIncrement: maybe('seconds added per move (Fischer)'),
    clockByoyomi: maybe("byoyomi, seconds (lishogi's; not with an increment)"),
    periods: maybe('byoyomi periods, 1 to 5'),
    minutes: maybe("the arena's duration (a robin's window), minutes"),
    waitMinutes: maybe('minutes before the start (default 5)'),
    startDate: maybe('the start, ms since the epoch (instead of waitMinutes)'),
    rated: maybe('default true; never from a custom position'),
    position: maybe('the games start from this SFEN (a casual tournament)'),
    berserkable: maybe('default true'),
    streakable: maybe('default true'),
    hasChat: maybe('default true'),
    description: maybe('at most 600 characters'),
    password: maybe('players give it to join'),
    'conditions.minRating.rating': maybe('the least rating in the category to join'),
    'conditions.nbRatedGame.nb': maybe('the least number of rated games in the category'),
    conditions: Type.Optional(Type.Object({}, open)),
    botsAllowed: maybe('default false'),
    format: maybe('arena (default) or robin'),
    maxPlayers: maybe('default 300 (an arena), 16 (a robin)'),
    double: maybe('a robin where each pair meets twice'),
    arranged: maybe("a robin whose games are each played at a time both players agree (lishogi's Robin)"),
  },
  closed,
);
const JoinBody = Type.Object(
  { password: maybe("the tournament's password"), pairMeAsap: maybe('accepted, ignored') },
  closed,
);
const IdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9]{1,32}$' }) }, closed);
// a query string is text (the gateway's ajv does not coerce): digits, read as numbers below
const PageQuery = Type.Object(
  { page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'from 1, at most 2000' })) },
  closed,
);
const NbQuery = Type.Object(
  { nb: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,4}$', description: 'from 1, at most 20000' })) },
  closed,
);
const GamesQuery = Type.Object(
  {
    format: Type.Optional(
      Type.String({
        enum: ['ndjson', ...TOURNAMENT_RECORD_FORMATS],
        description: 'ndjson (the default), kif (Shift_JIS), kifu (KIF in UTF-8) or csa',
      }),
    ),
    version: Type.Optional(
      Type.String({ enum: [...CSA_VERSIONS], description: 'CSA only: 3.0 (the default, UTF-8) or 2.2 (Shift_JIS)' }),
    ),
  },
  closed,
);
const Ok = Type.Object({ ok: Type.Literal(true) }, closed);
const Any = Type.Object({}, open);

const PER_PAGE = 10;

/** lichess's tournament ids: 8 letters and digits. */
export const newTournamentId = (): string =>
  [...randomBytes(8)].map((b) => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[b % 62]).join('');

/** lichess's clients post join and withdraw with no body. */
const bodiless = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

export interface TournamentRoutesOptions {
  readonly handler: TournamentCommandHandler;
  /** Asks the director for a tick now (a new player may make a wave). */
  readonly nudge: () => void;
}

const tournamentRoutes: FastifyPluginAsyncTypebox<TournamentRoutesOptions> = async (app, { handler, nudge }) => {
  await app.register(formbody);
  const reads = app.databases.reads;

  const run = (id: string, request: TournamentCommandRequest) => runCommand(handler, id, request);

  const full = async (id: string, page: number) => {
    const row = await tournamentRow(reads, id);
    if (row === undefined) throw new ApiError('TOURNAMENT_NOT_FOUND');
    const players = await standingRows(reads, id, (page - 1) * PER_PAGE, PER_PAGE);
    const podium = row.status === 'finished' ? await standingRows(reads, id, 0, 3) : [];
    return {
      ...tournamentView(row, new Date()),
      standing: { page, players: players.map(standingPlayer) },
      ...(row.status === 'finished' ? { podium: podium.map(standingPlayer) } : {}),
    };
  };

  app.get(
    '/api/tournament',
    {
      schema: {
        tags: ['tournaments'],
        summary:
          "Tournaments created (upcoming), started and recently finished, lichess's `{created, started, finished}`",
        response: { 200: Any },
      },
    },
    async () => {
      const now = new Date();
      const { created, started, finished } = await tournamentsByStatus(reads);
      return {
        created: created.map((r) => tournamentView(r, now)),
        started: started.map((r) => tournamentView(r, now)),
        finished: finished.map((r) => tournamentView(r, now)),
      };
    },
  );

  app.post(
    '/api/tournament',
    {
      config: app.limits.lobby,
      preValidation: bodiless,
      schema: {
        tags: ['tournaments'],
        summary: "Create an arena or a round-robin with lichess's parameters (form or JSON); the tournament",
        body: CreateBody,
        response: { 200: Any },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const id = newTournamentId();
      const parsed = parseTournamentParams(request.body as TournamentParams, id, player.name, new Date());
      if (!parsed.ok) throw new ApiError(parsed.code, parsed.detail);
      const terms: TournamentTerms = parsed.value;
      await run(id, {
        type: 'CreateTournament',
        tournamentId: id,
        createdBy: { id: player.id, name: player.name },
        terms,
      });
      return full(id, 1);
    },
  );

  app.get(
    '/api/tournament/:id',
    {
      schema: {
        tags: ['tournaments'],
        summary:
          'A tournament with a page of its standings (10 a page), each player with their sheet; the podium once finished',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: Any },
      },
    },
    async (request) => full(request.params.id, Math.min(2000, Number(request.query.page ?? 1))),
  );

  app.post(
    '/api/tournament/:id/join',
    {
      config: app.limits.lobby,
      preValidation: bodiless,
      schema: {
        tags: ['tournaments'],
        summary: 'Join (or, in a running arena, rejoin after a pause)',
        params: IdParams,
        body: JoinBody,
        response: { 200: Ok },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const { id } = request.params;
      const terms = await handler.terms(id);
      if (terms === null) throw new ApiError('TOURNAMENT_NOT_FOUND');
      await run(id, await joinRequest(app.databases, id, terms, player, request.body.password));
      nudge();
      return { ok: true as const };
    },
  );

  for (const [path, summary] of [
    ['withdraw', 'Leave: before the start, out of it; in a running arena, paused (kept in the standings)'],
    ['terminate', 'End the tournament now (its creator)'],
  ] as const)
    app.post(
      `/api/tournament/:id/${path}`,
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
        await run(
          request.params.id,
          path === 'withdraw'
            ? { type: 'WithdrawFromTournament', playerId: player.id }
            : { type: 'TerminateTournament', by: player.id },
        );
        return { ok: true as const };
      },
    );

  app.get(
    '/api/tournament/:id/results',
    {
      schema: {
        tags: ['tournaments'],
        summary:
          'The standings as NDJSON, one player a line by rank: `{rank, score, rating, username, performance, sheet}`',
        params: IdParams,
        querystring: NbQuery,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if ((await tournamentRow(reads, id)) === undefined) throw new ApiError('TOURNAMENT_NOT_FOUND');
      const rows = await standingRows(reads, id, 0, Math.min(20_000, Number(request.query.nb ?? 20_000)));
      reply.type('application/x-ndjson');
      return rows.map((r) => `${JSON.stringify(resultLine(r))}\n`).join('');
    },
  );

  app.get(
    '/api/tournament/:id/games',
    {
      schema: {
        tags: ['tournaments'],
        summary:
          "The tournament's games in the order paired: NDJSON lines with players, result and berserks, or ?format=kif|kifu|csa their records as one file",
        params: IdParams,
        querystring: GamesQuery,
        produces: ['application/x-ndjson', 'text/plain'],
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { format = 'ndjson', version } = request.query;
      if (version !== undefined && format !== 'csa')
        throw new ApiError('BAD_REQUEST', 'version is for format=csa only');
      if ((await tournamentRow(reads, id)) === undefined) throw new ApiError('TOURNAMENT_NOT_FOUND');
      const rows = await tournamentGameRows(reads, id);
      if (format !== 'ndjson') {
        const options = {
          format: format as (typeof TOURNAMENT_RECORD_FORMATS)[number],
          csaVersion: (version ?? '3.0') as CsaVersion,
        };
        const ids = rows.map((g) => g.game_id);
        return reply
          .type(recordsContentType(options))
          .header('content-disposition', attachment(`tournament_${id}.${format}`))
          .send(Readable.from(tournamentRecords(reads, ids, options)) as never);
      }
      reply.type('application/x-ndjson');
      return rows
        .map(
          (g) =>
            `${JSON.stringify({
              id: g.game_id,
              tournamentId: id,
              ...(g.round === null ? {} : { round: g.round }),
              players: {
                sente: { id: g.sente_id, name: g.sente_name, berserk: g.berserk_sente },
                gote: { id: g.gote_id, name: g.gote_name, berserk: g.berserk_gote },
              },
              status: g.status,
              ...(g.status === 'finished'
                ? { winner: g.winner, plies: g.plies, endReason: g.forfeit ? 'forfeit' : g.end_reason }
                : {}),
              pairedAt: g.paired_at.toISOString(),
            })}\n`,
        )
        .join('');
    },
  );
};

export default tournamentRoutes;
