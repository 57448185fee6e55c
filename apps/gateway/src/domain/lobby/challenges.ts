/**
 * Challenges: a player challenges another by id or name; the challenged player accepts
 * (the game starts, start-game.ts's acceptLocked) or declines, the challenger may withdraw.
 * Each answer holds the challenge's row lock, so an accept and a decline (or two accepts)
 * take turns; players learn of challenges and answers through `notify` after the commit.
 */
import { randomUUID } from 'node:crypto';
import {
  CHALLENGE_TTL_MS,
  type ChallengeList,
  type ChallengeView,
  type CreateChallengeBody,
  MAX_PENDING_CHALLENGES,
} from '@shogi/protocol';
import { ApiError } from '../api-error.js';
import type { Player } from '../player.js';
import { answerable, checkSetup, checkTerms } from './checks.js';
import type { ChallengeStore } from './ports.js';
import {
  acceptLocked,
  announceAccepted,
  type LobbyContext,
  refuseIfPlaying,
  refuseRatedPairOverLimit,
} from './start-game.js';
import { challengeView, statusOf, withChallengeTitle, withChallengeTitles } from './views.js';

export interface ChallengeDeps extends LobbyContext {
  readonly store: ChallengeStore;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export type ChallengeService = ReturnType<typeof createChallengeService>;

export function createChallengeService(deps: ChallengeDeps) {
  const { store, now } = deps;
  return {
    createChallenge: (player: Player, body: CreateChallengeBody) => createChallenge(deps, player, body),

    async challenge(player: Player, id: string): Promise<ChallengeView> {
      const row = await store.getChallenge(id);
      if (!row || (row.challenger_id !== player.id && row.opponent_id !== player.id))
        throw new ApiError('CHALLENGE_NOT_FOUND');
      return withChallengeTitle(deps.titles, challengeView(row, now()));
    },

    async challenges(player: Player): Promise<ChallengeList> {
      const at = now();
      const { incoming, outgoing } = await store.listChallenges(player.id);
      const views = await withChallengeTitles(
        deps.titles,
        [...incoming, ...outgoing].map((r) => challengeView(r, at)),
      );
      return { incoming: views.slice(0, incoming.length), outgoing: views.slice(incoming.length) };
    },

    /** Only the challenged player accepts, once: a replay answers the same game. */
    async accept(player: Player, id: string): Promise<ChallengeView> {
      const at = now();
      const done = await store.transaction(async (tx) => {
        const row = await tx.lockChallenge(id);
        answerable(row, player, 'opponent');
        if (row.status === 'accepted') return { row, fresh: null };
        if (challengeView(row, at).status !== 'pending') throw new ApiError('CHALLENGE_CLOSED', statusOf(row, at));
        const accepted = await acceptLocked(deps, tx, row, at);
        return { row: accepted.row, fresh: accepted.challengerSide };
      });
      if (done.fresh !== null) await announceAccepted(deps, done.row, done.fresh);
      return withChallengeTitle(deps.titles, challengeView(done.row, at));
    },

    /** Only the challenged player declines; declining again answers the same. */
    async decline(player: Player, id: string): Promise<ChallengeView> {
      return close(deps, player, id, 'opponent', 'declined');
    },

    /** Only the challenger withdraws a pending challenge. */
    async cancelChallenge(player: Player, id: string): Promise<ChallengeView> {
      return close(deps, player, id, 'challenger', 'cancelled');
    },
  };
}

async function createChallenge(deps: ChallengeDeps, player: Player, body: CreateChallengeBody): Promise<ChallengeView> {
  const { store } = deps;
  checkTerms(body.timeControl, body.rated);
  const sfen = checkSetup(body);
  const opponent = await resolveOpponent(store, body.opponent);
  if (opponent.id === player.id) throw new ApiError('SAME_PLAYER', 'you cannot challenge yourself');
  // the acceptance checks both players under their locks; this only answers early
  // a bot account plays many games at once, as on lishogi
  if (!(await store.isBotAccount(player.id))) await refuseIfPlaying(store, player.id, body.timeControl);
  const at = deps.now();
  if (body.rated) await refuseRatedPairOverLimit(store, deps.ratedGamesPerPair, player.id, opponent.id, at);
  const row = await store.transaction(async (tx) => {
    await tx.lockQuota('challenges', player.id);
    if ((await tx.countPendingChallenges(player.id, at)) >= MAX_PENDING_CHALLENGES)
      throw new ApiError('TOO_MANY_CHALLENGES', `at most ${MAX_PENDING_CHALLENGES}`);
    return tx.insertChallenge({
      id: randomUUID(),
      challenger_id: player.id,
      challenger_name: player.name,
      opponent_id: opponent.id,
      opponent_name: opponent.name,
      time_control: body.timeControl,
      rated: body.rated,
      ruleset: body.ruleset ?? 'default',
      handicap: body.handicap ?? null,
      sfen,
      color: body.color ?? 'random',
      rematch_of: null,
      created_at: at,
      expires_at: new Date(at.getTime() + CHALLENGE_TTL_MS),
    });
  });
  const view = await withChallengeTitle(deps.titles, challengeView(row, at));
  await deps.notify(opponent.id, { type: 'challenge', challenge: view });
  return view;
}

/** By id, else by an account's username, else by a name only one player has. */
async function resolveOpponent(store: ChallengeStore, opponent: string): Promise<Player> {
  const byId = ID.test(opponent) ? await store.playerById(opponent) : null;
  if (byId) return byId;
  // an account's username is unique (case-insensitively); guests' names need not be
  const account = await store.accountHolder(opponent);
  if (account) return account;
  const named = await store.playersNamed(opponent);
  if (named.length > 1) throw new ApiError('AMBIGUOUS_PLAYER', opponent);
  const [found] = named;
  if (!found) throw new ApiError('UNKNOWN_PLAYER', opponent);
  return found;
}

/** Declines or withdraws under the challenge's lock; the same answer again answers the same. */
async function close(
  deps: ChallengeDeps,
  player: Player,
  id: string,
  who: 'opponent' | 'challenger',
  status: 'declined' | 'cancelled',
): Promise<ChallengeView> {
  const at = deps.now();
  const done = await deps.store.transaction(async (tx) => {
    const row = await tx.lockChallenge(id);
    answerable(row, player, who);
    if (row.status === status) return { row, fresh: false };
    if (challengeView(row, at).status !== 'pending') throw new ApiError('CHALLENGE_CLOSED', statusOf(row, at));
    return { row: await tx.closeChallenge(id, status), fresh: true };
  });
  if (done.fresh) {
    const to = who === 'opponent' ? done.row.challenger_id : done.row.opponent_id;
    await deps.notify(to, { type: status, challengeId: id });
  }
  return withChallengeTitle(deps.titles, challengeView(done.row, at));
}
