/**
 * The lishogi event feed (src/lishogi/event-feed.ts) over fake channels: what each notice
 * becomes, games followed to their end however it is published, the order of lines, and
 * every subscription released on close.
 */
import type { ChallengeView, GameView, LobbyMessage } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import { createEventFeed, type EventFeedDeps } from '../src/lishogi/event-feed.js';

/** A channel: its listeners, what it sends them, and resyncs. */
class FakeChannel {
  readonly listeners = new Set<(messages: readonly unknown[]) => void>();
  readonly resyncs = new Set<() => void>();
  async join(listener: (messages: readonly unknown[]) => void, resync: () => void): Promise<() => void> {
    this.listeners.add(listener);
    this.resyncs.add(resync);
    return () => {
      this.listeners.delete(listener);
      this.resyncs.delete(resync);
    };
  }
  send(...messages: unknown[]): void {
    for (const listener of this.listeners) listener(messages);
  }
}

const challenge = (id: string, status: ChallengeView['status'] = 'pending') => ({ id, status }) as ChallengeView;
const game = (id: string, status: GameView['status'] = 'ongoing') => ({ id, status }) as GameView;
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function setup(over: Partial<EventFeedDeps> = {}) {
  const player = new FakeChannel();
  const games = new Map<string, FakeChannel>();
  const states = new Map<string, GameView['status']>();
  const lines: object[] = [];
  const channel = (gameId: string) => {
    let c = games.get(gameId);
    if (!c) {
      c = new FakeChannel();
      games.set(gameId, c);
    }
    return c;
  };
  const feed = createEventFeed({
    joinPlayer: (listener, resync) => player.join(listener, resync),
    joinGame: (gameId, listener, resync) => channel(gameId).join(listener, resync),
    ongoingGames: async () => [...states].filter(([, s]) => s === 'ongoing').map(([id]) => id),
    incomingChallenges: async () => [],
    challenge: async (id) => challenge(id, 'declined'),
    game: async (gameId) => game(gameId, states.get(gameId) ?? 'ongoing'),
    shapeChallenge: async (c) => ({ id: c.id, status: c.status }),
    shapeGame: async (g) => ({ id: g.id }),
    write: (line) => lines.push(line),
    log: { warn: () => {} },
    ...over,
  });
  return { feed, player, channel, states, lines };
}

describe('when the stream opens', () => {
  test('a gameStart for every ongoing game, then the pending challenges, once subscribed', async () => {
    const { feed, player, channel, states, lines } = setup({
      incomingChallenges: async () => [challenge('c1')],
    });
    states.set('g1', 'ongoing');
    states.set('g0', 'ended');
    await feed.start();
    expect(player.listeners.size).toBe(1);
    expect(lines).toEqual([
      { type: 'gameStart', game: { id: 'g1' } },
      { type: 'challenge', challenge: { id: 'c1', status: 'pending' } },
    ]);
    expect(channel('g1').listeners.size).toBe(1);
    expect(feed.following).toBe(1);
  });
});

describe('notices on the player’s channel', () => {
  test('a challenge, a decline and a cancellation, in lishogi’s names', async () => {
    const { feed, player, lines } = setup();
    await feed.start();
    player.send(
      { type: 'challenge', challenge: challenge('c1') } satisfies LobbyMessage,
      { type: 'declined', challengeId: 'c2' } satisfies LobbyMessage,
      { type: 'cancelled', challengeId: 'c3' } satisfies LobbyMessage,
      { type: 'accepted', challengeId: 'c1', gameId: 'g9', color: 'sente' } satisfies LobbyMessage,
    );
    await settle();
    expect(lines.map((l) => (l as { type: string }).type)).toEqual([
      'challenge',
      'challengeDeclined',
      'challengeCanceled',
    ]);
  });

  test('a started game: gameStart, then gameFinish when its channel publishes GameEnded; once each', async () => {
    const { feed, player, channel, lines } = setup();
    await feed.start();
    player.send({ type: 'started', gameId: 'g1', color: 'gote' });
    player.send({ type: 'started', gameId: 'g1', color: 'gote' });
    await settle();
    channel('g1').send({ type: 'MoveAccepted' });
    await settle();
    expect(lines).toEqual([{ type: 'gameStart', game: { id: 'g1' } }]);
    channel('g1').send({ type: 'MoveAccepted' }, { type: 'GameEnded' });
    channel('g1').send({ type: 'GameEnded' });
    await settle();
    expect(lines).toEqual([
      { type: 'gameStart', game: { id: 'g1' } },
      { type: 'gameFinish', game: { id: 'g1' } },
    ]);
    expect(channel('g1').listeners.size).toBe(0);
    expect(feed.following).toBe(0);
  });

  test('a game already over when it is read: gameStart then gameFinish', async () => {
    const { feed, player, channel, states, lines } = setup();
    await feed.start();
    states.set('g1', 'ended');
    player.send({ type: 'started', gameId: 'g1', color: 'sente' });
    await settle();
    expect(lines.map((l) => (l as { type: string }).type)).toEqual(['gameStart', 'gameFinish']);
    expect(channel('g1').listeners.size).toBe(0);
  });

  test('after a lost Redis connection, a game that ended meanwhile is finished', async () => {
    const { feed, player, channel, states, lines } = setup();
    await feed.start();
    player.send({ type: 'started', gameId: 'g1', color: 'sente' });
    await settle();
    states.set('g1', 'ended');
    for (const resync of channel('g1').resyncs) resync();
    await settle();
    expect(lines.map((l) => (l as { type: string }).type)).toEqual(['gameStart', 'gameFinish']);
  });

  test('a slow lookup does not let a later notice overtake it', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { feed, player, lines } = setup({
      challenge: async (id) => {
        await gate;
        return challenge(id, 'declined');
      },
    });
    await feed.start();
    player.send({ type: 'declined', challengeId: 'c1' }, { type: 'challenge', challenge: challenge('c2') });
    await settle();
    expect(lines).toEqual([]);
    release();
    await settle();
    expect(lines.map((l) => (l as { type: string }).type)).toEqual(['challengeDeclined', 'challenge']);
  });

  test('a lookup that fails loses its line, not the stream', async () => {
    const { feed, player, lines } = setup({
      challenge: async () => {
        throw new Error('gone');
      },
    });
    await feed.start();
    player.send({ type: 'declined', challengeId: 'c1' }, { type: 'challenge', challenge: challenge('c2') });
    await settle();
    expect(lines).toEqual([{ type: 'challenge', challenge: { id: 'c2', status: 'pending' } }]);
  });
});

describe('closing', () => {
  test('releases the player’s and every game’s subscription; nothing is written after', async () => {
    const { feed, player, channel, states, lines } = setup();
    states.set('g1', 'ongoing');
    await feed.start();
    player.send({ type: 'started', gameId: 'g2', color: 'sente' });
    await settle();
    feed.close();
    expect(player.listeners.size).toBe(0);
    expect(channel('g1').listeners.size + channel('g2').listeners.size).toBe(0);
    const before = lines.length;
    player.send({ type: 'challenge', challenge: challenge('c9') });
    await settle();
    expect(lines.length).toBe(before);
  });

  test('a close while a game’s join is in flight leaves that channel when the join resolves', async () => {
    const late = new FakeChannel();
    let resolveJoin: () => void = () => {};
    const joined = new Promise<void>((resolve) => {
      resolveJoin = resolve;
    });
    const { feed, player } = setup({
      joinGame: async (_gameId, listener, resync) => {
        const leave = await late.join(listener, resync);
        await joined;
        return leave;
      },
    });
    await feed.start();
    player.send({ type: 'started', gameId: 'g1', color: 'sente' });
    await settle();
    feed.close();
    resolveJoin();
    await settle();
    expect(late.listeners.size).toBe(0);
  });
});
