/**
 * Accounts, sessions and personal API tokens. Passwords and tokens are never logged:
 * handlers log ids only, and the logger redacts the fields by path (logger.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_TAKEBACK_PREFERENCE } from '@shogi/game';
import {
  AccountResponse,
  ChangePasswordBody,
  CreatedTokenResponse,
  CreateTokenBody,
  CredentialsBody,
  ErrorResponse,
  MeResponse,
  Preferences,
  ReplacedTokenResponse,
  SessionResponse,
  SocketTicketResponse,
  TokenList,
  TokenParams,
} from '@shogi/protocol';
import { fairplayDb, setTakebackPreference, takebackPreferences } from '@shogi/store';
import { accountAddresses } from '../domain/account-addresses.js';
import { ApiError } from '../domain/api-error.js';
import { acceptedName } from '../domain/names.js';
import { principalOf } from '../plugins/access.js';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};
const bearer = [{ bearer: [] }];

const accounts: FastifyPluginAsyncTypebox = async (app) => {
  // fair play's related accounts: a keyed hash of the address each account registers and logs in from
  const addresses = accountAddresses(fairplayDb(app.databases.lobby), app.config.addressHashKey);
  app.post(
    '/api/accounts',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Register an account (a player with a username and a password, hashed with argon2id)',
        body: CredentialsBody,
        response: { 201: AccountResponse, ...errors },
      },
      config: app.limits.auth,
    },
    async (request, reply) => {
      const account = await app.auth.register(request.body.username, request.body.password);
      await addresses.record(account.id, request.ip);
      request.log.info({ playerId: account.id }, 'account registered');
      return reply.code(201).send(account);
    },
  );

  app.post(
    '/api/session',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Log in: a session token with the play and read scopes, valid SESSION_TTL_DAYS days',
        body: CredentialsBody,
        response: { 201: SessionResponse, ...errors },
      },
      config: app.limits.auth,
    },
    async (request, reply) => {
      const session = await app.auth.login(request.body.username, request.body.password);
      await addresses.record(session.player.id, request.ip);
      request.log.info({ playerId: session.player.id, tokenId: session.id }, 'logged in');
      return reply.code(201).send(session);
    },
  );

  app.delete(
    '/api/session',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Log out: revokes the presented session token on every gateway',
        security: bearer,
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await app.auth.logout(principal);
      request.log.info({ playerId: principal.id, tokenId: principal.token.id }, 'logged out');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/me/token',
    {
      schema: {
        tags: ['accounts'],
        summary:
          'Replace the presented guest token with a new one (shown once); the old one stops working on every gateway at once',
        security: bearer,
        response: { 201: ReplacedTokenResponse, ...errors },
      },
      config: app.limits.auth,
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const replaced = await app.auth.replaceGuestToken(principal);
      request.log.info({ playerId: principal.id }, 'guest token replaced');
      return reply.code(201).send(replaced);
    },
  );

  app.post(
    '/api/me/password',
    {
      schema: {
        tags: ['accounts'],
        summary:
          "Change your password: {currentPassword, newPassword, revokePersonalTokens?} with a session token; the account's other sessions and its personal tokens end on every gateway; revokePersonalTokens: false keeps the personal tokens",
        security: bearer,
        body: ChangePasswordBody,
        response: { 204: { type: 'null' }, ...errors },
      },
      config: app.limits.auth,
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { currentPassword, newPassword, revokePersonalTokens = true } = request.body;
      await app.auth.changePassword(principal, currentPassword, newPassword, { revokePersonalTokens });
      request.log.info({ playerId: principal.id, revokePersonalTokens }, 'password changed');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/socket-ticket',
    {
      schema: {
        tags: ['accounts'],
        summary:
          'A one-use ticket for opening a WebSocket (?ticket=) without putting the token in its URL; it expires after SOCKET_TICKET_TTL_MS',
        security: bearer,
        response: { 201: SocketTicketResponse, ...errors },
      },
      // each ticket is a Redis key for its lifetime: a token's tickets are bounded like its lobby writes
      config: app.limits.lobby,
    },
    async (request, reply) => {
      const { ticket, expiresAt } = await app.issueSocketTicket(principalOf(request));
      return reply.code(201).send({ ticket, expiresAt: expiresAt.toISOString() });
    },
  );

  app.get(
    '/api/me',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The player of the presented token, and the token: kind, scopes, expiry',
        security: bearer,
        response: { 200: MeResponse, ...errors },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return {
        id: p.id,
        name: p.name,
        username: p.username,
        token: {
          id: p.token.id,
          kind: p.token.kind,
          scopes: [...p.token.scopes],
          expiresAt: p.token.expiresAt === null ? null : p.token.expiresAt.toISOString(),
        },
      };
    },
  );

  app.get(
    '/api/me/preferences',
    {
      schema: {
        tags: ['accounts'],
        summary: "Your preferences (a guest's are the defaults)",
        security: bearer,
        response: { 200: Preferences, ...errors },
      },
    },
    async (request) => {
      const p = principalOf(request);
      const prefs = await takebackPreferences(app.databases.games, [p.id]);
      return { takeback: prefs.get(p.id) ?? DEFAULT_TAKEBACK_PREFERENCE };
    },
  );

  app.post(
    '/api/me/preferences',
    {
      schema: {
        tags: ['accounts'],
        summary: "Set your preferences: takeback (always, casual, never), asked of both players' when one is proposed",
        security: bearer,
        body: Preferences,
        response: { 200: Preferences, ...errors },
      },
    },
    async (request) => {
      const p = principalOf(request);
      if (!(await setTakebackPreference(app.databases.games, p.id, request.body.takeback)))
        throw new ApiError('ACCOUNT_REQUIRED');
      return { takeback: request.body.takeback };
    },
  );

  app.post(
    '/api/tokens',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Create a personal API token (for bots and scripts); needs a session token',
        security: bearer,
        body: CreateTokenBody,
        response: { 201: CreatedTokenResponse, ...errors },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const body = { ...request.body, name: acceptedName(request.body.name) };
      const created = await app.auth.createToken(principal, body);
      request.log.info({ playerId: principal.id, tokenId: created.id, scopes: created.scopes }, 'token created');
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/tokens',
    {
      schema: {
        tags: ['accounts'],
        summary: "The account's active session and personal tokens (never the tokens themselves); needs read",
        security: bearer,
        response: { 200: TokenList, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return { tokens: await app.auth.listTokens(principal) };
    },
  );

  app.delete(
    '/api/tokens/:id',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Revoke a token of yours (it stops working on every gateway at once); needs a session token',
        security: bearer,
        params: TokenParams,
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await app.auth.revokeToken(principal, request.params.id);
      request.log.info({ playerId: principal.id, tokenId: request.params.id }, 'token revoked');
      return reply.code(204).send(null);
    },
  );
};

export default accounts;
