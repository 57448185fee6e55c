/**
 * Fair play's routes: players report an account (merged with the account's other reports,
 * rate-limited), moderators (the `mod` scope) read the queue and mark or unmark an account,
 * every action an event in the account's fair-play stream with who and why.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuthHeaders,
  ErrorResponse,
  MarkBody,
  MarkResponse,
  ModQueueResponse,
  ModUsernameParams,
  ReportAccepted,
  ReportBody,
} from '@shogi/protocol';
import { appendFairplay, fairplayDb, findAccountByUsername, markEngine, modQueue, unmarkEngine } from '@shogi/store';
import { ApiError } from '../domain/api-error.js';
import { principalOf } from '../plugins/access.js';

const tags = ['fair play'];
const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  422: ErrorResponse,
  429: ErrorResponse,
};

const fairplayRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = fairplayDb(app.databases.lobby);
  const accountOf = async (username: string) => {
    const account = await findAccountByUsername(app.databases.lobby, username);
    if (account === undefined) throw new ApiError('ACCOUNT_NOT_FOUND', `no account is called ${username}`);
    return account;
  };

  app.post(
    '/api/report',
    {
      schema: {
        tags,
        summary:
          'Report an account for engine use (cheat), rating manipulation (boost) or else; reports of one account merge',
        headers: AuthHeaders,
        body: ReportBody,
        response: { 202: ReportAccepted, ...errors },
      },
      config: app.limits.reports,
    },
    async (request, reply) => {
      const player = principalOf(request);
      const { username, reason, text } = request.body;
      const account = await accountOf(username);
      if (account.playerId === player.id) throw new ApiError('SELF_REPORT');
      await appendFairplay(db, account.playerId, [
        {
          type: 'PlayerReported',
          data: { reporterId: player.id, reason, ...(text === undefined || text === '' ? {} : { text }) },
        },
      ]);
      return reply.code(202).send({ ok: true });
    },
  );

  app.get(
    '/api/mod/queue',
    {
      schema: {
        tags,
        summary: 'Accounts to look at: markable first, then reportable, then reported, each with its evidence',
        headers: AuthHeaders,
        response: { 200: ModQueueResponse, ...errors },
      },
    },
    async () => ({ entries: await modQueue(db) }),
  );

  app.post(
    '/api/mod/:username/engine',
    {
      schema: {
        tags,
        summary:
          "Mark an account as an engine user: off the leaderboards, out of its tournaments (running, and the last 14 days' results), its victims' ratings refunded",
        headers: AuthHeaders,
        params: ModUsernameParams,
        body: MarkBody,
        response: { 200: MarkResponse, ...errors },
      },
    },
    async (request) => {
      const moderator = principalOf(request);
      const account = await accountOf(request.params.username);
      const now = new Date();
      const outcome = await markEngine(db, account.playerId, moderator.id, request.body.reason, now);
      // also when marked already: a mark whose ejections were cut short (a gateway dying) completes them
      const tournaments = await app.tournamentEject(account.playerId, now);
      return {
        username: account.username,
        marked: true,
        changed: outcome.kind === 'done',
        refunds: outcome.kind === 'done' ? outcome.refunds : 0,
        tournaments,
      };
    },
  );

  app.delete(
    '/api/mod/:username/engine',
    {
      schema: {
        tags,
        summary: 'Unmark an account; the refunds its mark gave stay',
        headers: AuthHeaders,
        params: ModUsernameParams,
        body: MarkBody,
        response: { 200: MarkResponse, ...errors },
      },
    },
    async (request) => {
      const moderator = principalOf(request);
      const account = await accountOf(request.params.username);
      const outcome = await unmarkEngine(db, account.playerId, moderator.id, request.body.reason);
      return {
        username: account.username,
        marked: false,
        changed: outcome.kind === 'done',
        refunds: 0,
        tournaments: 0,
      };
    },
  );
};

export default fairplayRoutes;
