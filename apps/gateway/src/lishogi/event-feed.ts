/**
 * What one lishogi event stream (`GET /api/stream/event`) tells its player, in lishogi's events:
 * - `challenge`, `challengeDeclined`, `challengeCanceled`: the lobby's notices on the player's
 *   `player:<id>` channel, whichever route or client made the challenge (it is one lobby);
 * - `gameStart`: for every game of the player's that starts (the game service's `started`
 *   notice on the same channel, sent for every game however it was made), and for each game
 *   still running when the stream opens, with the pending challenges sent to the player;
 * - `gameFinish`: when a game it announced ends, however it ends (a move judged by a worker, a
 *   flag, a resignation or an abort at any gateway): the feed follows each such game's own
 *   channel on the hub, where every ending is published, until its GameEnded.
 * Subscriptions come first and reads after, so nothing published in between is missed; lines
 * leave in the order their causes arrived; closing releases every subscription.
 */
import type { ChallengeView, GameView, LobbyMessage } from '@shogi/protocol';

/** A subscription's listener and the way to leave it (the hubs' `join`). */
export type Join = (listener: (messages: readonly unknown[]) => void, resync: () => void) => Promise<() => void>;

export interface EventFeedDeps {
  /** the player's `player:<id>` channel */
  readonly joinPlayer: Join;
  /** a game's channel (its events, GameEnded among them) */
  readonly joinGame: (gameId: string, ...rest: Parameters<Join>) => ReturnType<Join>;
  /** the ids of the player's ongoing games */
  readonly ongoingGames: () => Promise<readonly string[]>;
  /** the pending challenges sent to the player */
  readonly incomingChallenges: () => Promise<readonly ChallengeView[]>;
  /** a challenge the player is a party to */
  readonly challenge: (id: string) => Promise<ChallengeView>;
  readonly game: (gameId: string) => Promise<GameView>;
  /** lishogi's shapes, as the player sees them */
  readonly shapeChallenge: (challenge: ChallengeView) => Promise<unknown>;
  readonly shapeGame: (game: GameView) => Promise<unknown>;
  /** writes one line of the stream */
  readonly write: (line: object) => void;
  readonly log: { warn(obj: object, msg: string): void };
}

export interface EventFeed {
  /** Subscribes, then sends what is there already; rejects when the subscription fails. */
  start(): Promise<void>;
  close(): void;
  /** the games followed for their end */
  readonly following: number;
}

const isEnd = (event: unknown): boolean => (event as { type?: unknown } | null)?.type === 'GameEnded';

export function createEventFeed(deps: EventFeedDeps): EventFeed {
  let closed = false;
  let leavePlayer: (() => void) | null = null;
  // gameId -> leave its channel; a no-op while its join is in flight
  const followed = new Map<string, () => void>();
  let queue: Promise<void> = Promise.resolve();

  /** Runs steps one after another: each line leaves after those of earlier causes. */
  const inOrder = (step: () => Promise<void>): Promise<void> => {
    queue = queue
      .then(() => (closed ? undefined : step()))
      .catch((err: unknown) => deps.log.warn({ err }, 'lishogi event stream: an event could not be sent'));
    return queue;
  };
  const emit = (line: object) => {
    if (!closed) deps.write(line);
  };

  const finish = async (gameId: string, known?: GameView) => {
    const leave = followed.get(gameId);
    if (leave === undefined) return;
    followed.delete(gameId);
    leave();
    emit({ type: 'gameFinish', game: await deps.shapeGame(known ?? (await deps.game(gameId))) });
  };

  const follow = async (gameId: string) => {
    if (followed.has(gameId)) return;
    followed.set(gameId, () => {});
    const leave = await deps.joinGame(
      gameId,
      (events) => {
        if (events.some(isEnd)) void inOrder(() => finish(gameId));
      },
      () => void inOrder(() => recheck(gameId)),
    );
    if (closed || !followed.has(gameId)) return leave();
    followed.set(gameId, leave);
    // read once subscribed: an ending published before the join is in the game's state
    const game = await deps.game(gameId);
    emit({ type: 'gameStart', game: await deps.shapeGame(game) });
    if (game.status === 'ended') await finish(gameId, game);
  };

  /** After a lost Redis connection: what ended meanwhile was not heard. */
  const recheck = async (gameId: string) => {
    if (!followed.has(gameId)) return;
    const game = await deps.game(gameId);
    if (game.status === 'ended') await finish(gameId, game);
  };

  const challengeLine = async (type: string, challenge: ChallengeView) =>
    emit({ type, challenge: await deps.shapeChallenge(challenge) });

  const onMessage = async (message: LobbyMessage) => {
    switch (message.type) {
      case 'challenge':
      case 'rematch':
        return challengeLine('challenge', message.challenge);
      case 'declined':
        return challengeLine('challengeDeclined', await deps.challenge(message.challengeId));
      case 'cancelled':
        return challengeLine('challengeCanceled', await deps.challenge(message.challengeId));
      case 'started':
        return follow(message.gameId);
      // a pairing or an acceptance is followed by its game's `started`
      case 'paired':
      case 'accepted':
      case 'hello':
      case 'seeks':
      case 'error':
        return;
      default:
        message satisfies never;
    }
  };

  const followOngoing = async () => {
    for (const gameId of await deps.ongoingGames()) await follow(gameId);
  };

  return {
    async start() {
      const leave = await deps.joinPlayer(
        (messages) => {
          for (const message of messages) void inOrder(() => onMessage(message as LobbyMessage));
        },
        // notices published while Redis was away are lost: the games are found again, and
        // challenges are in the lobby for a client that polls
        () => void inOrder(followOngoing),
      );
      if (closed) return leave();
      leavePlayer = leave;
      await inOrder(async () => {
        await followOngoing();
        for (const challenge of await deps.incomingChallenges()) await challengeLine('challenge', challenge);
      });
    },
    close() {
      if (closed) return;
      closed = true;
      leavePlayer?.();
      leavePlayer = null;
      for (const leave of followed.values()) leave();
      followed.clear();
    },
    get following() {
      return followed.size;
    },
  };
}
