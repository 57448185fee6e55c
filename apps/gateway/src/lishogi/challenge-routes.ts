/**
 * lishogi's challenge routes over the one lobby (plugins/lobby.ts): a challenge made here
 * reaches the challenged player's lobby socket and event stream like one made with `POST
 * /api/challenges`, under the same checks and limits, and answers are the lobby's own.
 * Scopes as lishogi's: `challenge:write`, or the `bot:play` or `board:play` a client plays with.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ErrorCode } from '@shogi/protocol';
import { ApiError } from '../domain/api-error.js';
import { principalOf } from '../plugins/access.js';
import { shaper } from './cards.js';
import { parseChallengeParams } from './challenge-params.js';
import { originOf } from './origin.js';
import {
  ChallengeIdParams,
  ChallengeParamsBody,
  ChallengeTarget,
  DeclineBody,
  LISHOGI_ERRORS,
  LishogiChallenge,
  Ok,
} from './schemas.js';

/**
 * lishogi answers accept, decline and cancel with 404 for any challenge it cannot answer so
 * (gone, answered, not addressed to you), and its bot clients skip a 404 but stop on any other
 * 4xx: the lobby's refusals are given as not found, the lobby's reason in the detail.
 */
const NOT_FOUND_ON_LISHOGI: ReadonlySet<ErrorCode> = new Set([
  'NOT_YOUR_CHALLENGE',
  'CHALLENGE_CLOSED',
  'ALREADY_PLAYING',
  'OPPONENT_PLAYING',
  // the pair's rated games for the day are played: a bot client skips the challenge and goes on
  'RATED_PAIR_LIMIT',
]);

async function answered(answer: () => Promise<unknown>): Promise<{ ok: true }> {
  try {
    await answer();
    return { ok: true };
  } catch (err) {
    if (err instanceof ApiError && NOT_FOUND_ON_LISHOGI.has(err.code))
      throw new ApiError('CHALLENGE_NOT_FOUND', err.detail === undefined ? err.code : `${err.code}: ${err.detail}`);
    throw err;
  }
}

/** lishogi's clients post these without a body: read as an empty one. */
const bodiless = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

const challengeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reads = app.databases.reads;
  const { lobby } = app;

  app.post(
    '/api/challenge/:username',
    {
      config: app.limits.lobby,
      preValidation: bodiless,
      schema: {
        tags: ['lishogi'],
        summary:
          "Challenge a player (a username in any case, or a player id) with lishogi's parameters, form-encoded or JSON; the challenge in lishogi's shape",
        params: ChallengeTarget,
        body: ChallengeParamsBody,
        response: { 200: LishogiChallenge, ...LISHOGI_ERRORS },
      },
    },
    async (request) => {
      const player = principalOf(request);
      const parsed = parseChallengeParams(request.body);
      if (!parsed.ok) throw new ApiError(parsed.code, parsed.detail);
      const challenge = await lobby.createChallenge(player, { opponent: request.params.username, ...parsed.value });
      return shaper(reads, originOf(request)).challenge(challenge, player.id);
    },
  );

  const answer = (action: 'accept' | 'decline' | 'cancel', summary: string) =>
    app.post(
      `/api/challenge/:id/${action}`,
      {
        config: app.limits.lobby,
        preValidation: bodiless,
        schema: {
          tags: ['lishogi'],
          summary,
          params: ChallengeIdParams,
          // lishogi's decline takes a reason; this server keeps none, and the others take nothing
          body: DeclineBody,
          response: { 200: Ok, ...LISHOGI_ERRORS },
        },
      },
      async (request) => {
        const player = principalOf(request);
        const { id } = request.params;
        if (action === 'accept') return answered(() => lobby.accept(player, id));
        if (action === 'decline') return answered(() => lobby.decline(player, id));
        return answered(() => lobby.cancelChallenge(player, id));
      },
    );
  answer('accept', 'Accept a challenge sent to you: the game starts (gameStart on the event stream)');
  answer('decline', 'Decline a challenge sent to you (`reason` is taken and not kept)');
  answer('cancel', 'Withdraw a challenge you sent');
};

export default challengeRoutes;
