/**
 * The lobby services over a recording fake of their store ports (no database): the order in
 * which a pairing and an acceptance take their locks and write, which is what keeps them free
 * of lock cycles, and what each tells the players. The races themselves are
 * tests/integration/lobby.test.ts's, over PostgreSQL.
 */
import type { CreateGameBody, GameView, LobbyMessage, TimeControl } from '@shogi/protocol';
import { START_SFEN } from '@shogi/rules';
import { describe, expect, test } from 'vitest';
import { createLobbyService } from '../src/domain/lobby/index.js';
import { poolKeyOf } from '../src/domain/lobby/pairing.js';
import type { LobbyBots, LobbyStore, LobbyTx, StoredChallenge, StoredSeek } from '../src/domain/lobby/ports.js';

const BLITZ: TimeControl = { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 };
const AT = new Date('2026-01-01T00:00:00Z');
const alice = { id: 'alice', name: 'Alice' };
const bob = { id: 'bob', name: 'Bob' };

const openSeek = (over: Partial<StoredSeek> = {}): StoredSeek => ({
  id: 'seek-bob',
  player_id: bob.id,
  player_name: bob.name,
  rating: 1500,
  pool_key: poolKeyOf({ timeControl: BLITZ, rated: false, ruleset: 'default', handicap: null }),
  time_control: BLITZ,
  rated: false,
  ruleset: 'default',
  handicap: null,
  color: 'random',
  rating_min: null,
  rating_max: null,
  status: 'open',
  game_id: null,
  side: null,
  created_at: new Date(AT.getTime() - 1000),
  expires_at: new Date(AT.getTime() + 600_000),
  address_key: null,
  ...over,
});

const offer = (over: Partial<StoredChallenge> = {}): StoredChallenge => ({
  id: 'offer-bob',
  challenger_id: bob.id,
  challenger_name: bob.name,
  opponent_id: alice.id,
  opponent_name: alice.name,
  time_control: BLITZ,
  rated: false,
  ruleset: 'default',
  handicap: null,
  sfen: null,
  color: 'sente',
  status: 'pending',
  game_id: null,
  rematch_of: 'g0',
  created_at: AT,
  expires_at: new Date(AT.getTime() + 300_000),
  ...over,
});

/** Every port call, in order, as `name args…`; `answers` overrides what a call resolves to. */
function recordingStore(answers: Partial<Record<keyof LobbyTx | keyof LobbyStore, (...args: never[]) => unknown>>) {
  const calls: string[] = [];
  const record =
    (name: string, fallback: (...args: never[]) => unknown) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args.filter((a) => typeof a === 'string' || Array.isArray(a))].join(' '));
      const answer = (answers as Record<string, (...a: unknown[]) => unknown>)[name] ?? fallback;
      return answer(...(args as never[]));
    };
  const inserted = (row: object, extra: object) => ({ ...row, ...extra });
  const tx = {
    ongoingGameOf: record('ongoingGameOf', () => null),
    isBotAccount: record('isBotAccount', () => false),
    isEngineMarked: record('isEngineMarked', () => false),
    countOpenSeeks: record('countOpenSeeks', () => 0),
    countOpenSeeksFrom: record('countOpenSeeksFrom', () => 0),
    lockQuota: record('lockQuota', () => undefined),
    lockPlayers: record('lockPlayers', () => undefined),
    withdrawOpenSeeks: record('withdrawOpenSeeks', () => 0),
    lockSeekPool: record('lockSeekPool', () => undefined),
    openSeeksInPool: record('openSeeksInPool', () => []),
    attempt: async <T>(fn: () => Promise<T | undefined>) => {
      calls.push('attempt');
      return fn();
    },
    lockOpenSeek: record('lockOpenSeek', () => undefined),
    markSeekPaired: record('markSeekPaired', () => undefined),
    insertSeek: record('insertSeek', (row: StoredSeek, paired?: { gameId: string; side: string }) =>
      inserted(row, {
        status: paired ? 'paired' : 'open',
        game_id: paired?.gameId ?? null,
        side: paired?.side ?? null,
      }),
    ),
    lockChallenge: record('lockChallenge', () => undefined),
    closeChallenge: record('closeChallenge', () => undefined),
    insertChallenge: record('insertChallenge', (row: StoredChallenge) =>
      inserted(row, { status: 'pending', game_id: null }),
    ),
    countPendingChallenges: record('countPendingChallenges', () => 0),
    lockRematches: record('lockRematches', () => undefined),
    rematchesOf: record('rematchesOf', () => []),
  } as unknown as LobbyTx;
  const store = {
    ...tx,
    lobbyRating: record('lobbyRating', () => 1500),
    listOpenSeeks: record('listOpenSeeks', () => []),
    getSeek: record('getSeek', () => undefined),
    cancelSeek: record('cancelSeek', () => undefined),
    getChallenge: record('getChallenge', () => undefined),
    listChallenges: record('listChallenges', () => ({ incoming: [], outgoing: [] })),
    playerById: record('playerById', () => null),
    accountHolder: record('accountHolder', () => null),
    playersNamed: record('playersNamed', () => []),
    handicapOf: record('handicapOf', () => null),
    tournamentOf: record('tournamentOf', () => null),
    transaction: async <T>(fn: (t: LobbyTx) => Promise<T>) => {
      calls.push('begin');
      const result = await fn(tx);
      calls.push('commit');
      return result;
    },
  } as unknown as LobbyStore;
  return { store, calls };
}

function lobbyOver(store: LobbyStore, calls: string[], ended?: Partial<GameView>, bots?: LobbyBots) {
  const notified: [string, LobbyMessage][] = [];
  const service = createLobbyService({
    ...(bots === undefined ? {} : { bots }),
    store,
    games: {
      createGame: async (body: CreateGameBody) => {
        calls.push(`createGame ${body.sente} ${body.gote}`);
        return { id: 'g1' } as GameView;
      },
      view: async () =>
        ({
          id: 'g0',
          status: 'ended',
          players: { sente: alice, gote: bob },
          timeControl: BLITZ,
          rated: false,
          ruleset: 'default',
          initialSfen: START_SFEN,
          ...ended,
        }) as GameView,
    },
    notify: async (playerId, message) => {
      notified.push([playerId, message]);
    },
    now: () => AT,
    coin: () => true,
  });
  return { service, notified };
}

describe('a seek', () => {
  const body = { timeControl: BLITZ, rated: false };

  test('pairs under the quota, pool and both players’ locks, in that order, then tells both players', async () => {
    const theirs = openSeek();
    const { store, calls } = recordingStore({ openSeeksInPool: () => [theirs], lockOpenSeek: () => theirs });
    const { service, notified } = lobbyOver(store, calls);
    const view = await service.createSeek(alice, body);
    expect(view).toMatchObject({ status: 'paired', gameId: 'g1', side: 'sente' });
    const inTransaction = calls.slice(calls.indexOf('begin'));
    expect(inTransaction).toEqual([
      'begin',
      'lockQuota seeks alice',
      'countOpenSeeks alice',
      `lockSeekPool ${theirs.pool_key}`,
      `openSeeksInPool ${theirs.pool_key} alice`,
      'attempt',
      'lockPlayers alice,bob',
      'isBotAccount alice',
      'ongoingGameOf alice byoyomi,fischer',
      'lockOpenSeek seek-bob',
      'isEngineMarked alice',
      'isEngineMarked bob',
      'ongoingGameOf bob byoyomi,fischer',
      'createGame alice bob',
      'markSeekPaired seek-bob g1 gote',
      'withdrawOpenSeeks alice,bob',
      'insertSeek',
      'commit',
    ]);
    expect(notified.map(([to, m]) => [to, m.type, 'color' in m ? m.color : null])).toEqual([
      ['alice', 'paired', 'sente'],
      ['bob', 'paired', 'gote'],
    ]);
  });

  test('a candidate taken meanwhile is passed over: the seek is posted open under its player’s lock alone', async () => {
    const { store, calls } = recordingStore({ openSeeksInPool: () => [openSeek()], lockOpenSeek: () => undefined });
    const { service, notified } = lobbyOver(store, calls);
    const view = await service.createSeek(alice, body);
    expect(view.status).toBe('open');
    expect(calls.slice(calls.indexOf('lockOpenSeek seek-bob'))).toEqual([
      'lockOpenSeek seek-bob',
      'lockPlayers alice',
      'isBotAccount alice',
      'ongoingGameOf alice byoyomi,fischer',
      'insertSeek',
      'commit',
    ]);
    expect(notified).toEqual([]);
  });

  test('a player in a real-time game is answered before any transaction', async () => {
    const { store, calls } = recordingStore({ ongoingGameOf: () => 'g9' });
    const { service } = lobbyOver(store, calls);
    await expect(service.createSeek(alice, body)).rejects.toMatchObject({ code: 'ALREADY_PLAYING', detail: 'game g9' });
    expect(calls).not.toContain('begin');
  });

  test('a bot account is refused before any transaction: bots play through challenges only', async () => {
    const { store, calls } = recordingStore({ isBotAccount: () => true });
    const { service } = lobbyOver(store, calls);
    await expect(service.createSeek(alice, body)).rejects.toMatchObject({ code: 'BOT_ACCOUNT' });
    expect(calls).not.toContain('begin');
  });
});

describe('a rematch', () => {
  test('offered while the opponent’s offer is pending accepts it: one game, both told', async () => {
    const theirs = offer();
    const { store, calls } = recordingStore({
      rematchesOf: () => [theirs],
      lockChallenge: () => theirs,
      closeChallenge: () => ({ ...theirs, status: 'accepted', game_id: 'g1' }),
    });
    const { service, notified } = lobbyOver(store, calls);
    const { challenge, created } = await service.rematch(alice, 'g0');
    expect({ status: challenge.status, gameId: challenge.gameId, created }).toEqual({
      status: 'accepted',
      gameId: 'g1',
      created: false,
    });
    expect(calls.slice(calls.indexOf('begin'))).toEqual([
      'begin',
      'lockRematches g0',
      'rematchesOf g0',
      'lockChallenge offer-bob',
      // a bot account would be neither locked nor checked
      'isBotAccount bob',
      'isBotAccount alice',
      'lockPlayers bob,alice',
      'ongoingGameOf alice byoyomi,fischer',
      'ongoingGameOf bob byoyomi,fischer',
      'createGame bob alice',
      'withdrawOpenSeeks bob,alice byoyomi,fischer',
      'closeChallenge offer-bob accepted g1',
      'commit',
    ]);
    expect(notified.map(([to, m]) => [to, m.type])).toEqual([
      ['bob', 'accepted'],
      ['alice', 'accepted'],
    ]);
  });

  describe('offered to a bot the gateway runs', () => {
    const botPlayer = { id: 'bot', name: 'Engine level 4' };
    const bots = (joined: [string, string][]): LobbyBots => ({
      runs: (playerId) => playerId === botPlayer.id,
      join: (playerId, game) => void joined.push([playerId, game.id]),
    });
    const afterBotGame = { players: { sente: alice, gote: botPlayer } };
    test('is accepted at once under the person’s lock alone, and the bot is given the game', async () => {
      let offered: StoredChallenge | undefined;
      const { store, calls } = recordingStore({
        insertChallenge: (row: StoredChallenge) => {
          offered = { ...row, status: 'pending', game_id: null };
          return offered;
        },
        closeChallenge: () => ({ ...offered, status: 'accepted', game_id: 'g1' }),
      });
      const joined: [string, string][] = [];
      const { service, notified } = lobbyOver(store, calls, afterBotGame, bots(joined));
      const { challenge, created } = await service.rematch(alice, 'g0');
      expect({ status: challenge.status, gameId: challenge.gameId, created }).toEqual({
        status: 'accepted',
        gameId: 'g1',
        created: true,
      });
      const inTransaction = calls.slice(calls.indexOf('begin'));
      expect(inTransaction).toEqual([
        'begin',
        'lockRematches g0',
        'rematchesOf g0',
        'ongoingGameOf alice byoyomi,fischer',
        'insertChallenge',
        // the bot plays many games at once: neither locked nor checked
        'isBotAccount alice',
        'lockPlayers alice',
        'ongoingGameOf alice byoyomi,fischer',
        // colours swapped: alice was sente
        'createGame bot alice',
        'withdrawOpenSeeks alice byoyomi,fischer',
        expect.stringMatching(/^closeChallenge .+ accepted g1$/),
        'commit',
      ]);
      expect(joined).toEqual([['bot', 'g1']]);
      expect(notified.map(([to, m]) => [to, m.type])).toEqual([
        ['alice', 'accepted'],
        ['bot', 'accepted'],
      ]);
    });

    test('a person who started a real-time game meanwhile is told ALREADY_PLAYING, and the bot gets nothing', async () => {
      // free when first asked, playing once locked: another game started in between
      let asked = 0;
      const { store, calls } = recordingStore({ ongoingGameOf: () => (++asked > 1 ? 'g9' : null) });
      const joined: [string, string][] = [];
      const { service } = lobbyOver(store, calls, afterBotGame, bots(joined));
      await expect(service.rematch(alice, 'g0')).rejects.toMatchObject({ code: 'ALREADY_PLAYING', detail: 'game g9' });
      expect(joined).toEqual([]);
    });

    test('a rated game’s rematch stays an offer: a bot plays only casual games', async () => {
      const { store, calls } = recordingStore({});
      const joined: [string, string][] = [];
      const { service, notified } = lobbyOver(store, calls, { ...afterBotGame, rated: true }, bots(joined));
      const { challenge, created } = await service.rematch(alice, 'g0');
      expect({ status: challenge.status, created }).toEqual({ status: 'pending', created: true });
      expect(calls).not.toContain('lockPlayers alice');
      expect(joined).toEqual([]);
      expect(notified.map(([to, m]) => [to, m.type])).toEqual([['bot', 'rematch']]);
    });
  });
});
