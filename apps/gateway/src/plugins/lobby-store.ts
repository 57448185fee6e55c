/** The lobby's store ports (domain/lobby/ports.ts) over @shogi/store's lobby repository. */
import {
  attempt,
  cancelSeek,
  closeChallenge,
  countOpenSeeks,
  countOpenSeeksFrom,
  countPendingChallenges,
  type Db,
  findAccountByUsername,
  gameSetupOf,
  getChallenge,
  getPlayer,
  getSeek,
  insertChallenge,
  insertSeek,
  isBotAccount,
  isEngineMarkedPlayer,
  type LobbyDb,
  listChallenges,
  listOpenSeeks,
  lobbyDb,
  lobbyRating,
  lockChallenge,
  lockOpenSeek,
  lockPlayers,
  lockQuota,
  lockRematches,
  lockSeekPool,
  markSeekPaired,
  ongoingGameOf,
  openSeeksInPool,
  playersNamed,
  ratedGamesBetween,
  rematchesOf,
  tournamentOfGame,
  withdrawOpenSeeks,
} from '@shogi/store';
import type { BotReads, LobbyStore, LobbyTx, MarkReads, PlayingReads, SeekCounts } from '../domain/lobby/ports.js';

export function lobbyStore(db: Db): LobbyStore {
  const lobby = lobbyDb(db);
  return {
    ...reads(lobby),
    lobbyRating: (playerId, timeControl) => lobbyRating(db, playerId, timeControl),
    listOpenSeeks: (at) => listOpenSeeks(lobby, at),
    getSeek: (id) => getSeek(lobby, id),
    cancelSeek: (id, at) => cancelSeek(lobby, id, at),
    getChallenge: (id) => getChallenge(lobby, id),
    listChallenges: (playerId) => listChallenges(lobby, playerId),
    playerById: async (id) => {
      const row = await getPlayer(db, id);
      return row ? { id: row.id, name: row.name } : null;
    },
    accountHolder: async (username) => {
      const account = await findAccountByUsername(db, username);
      return account ? { id: account.playerId, name: account.name } : null;
    },
    playersNamed: (name) => playersNamed(db, name),
    handicapOf: async (gameId) => (await gameSetupOf(db, gameId))?.handicap ?? null,
    tournamentOf: (gameId) => tournamentOfGame(db, gameId),
    transaction: (fn) => lobby.transaction().execute((trx) => fn(inTransaction(trx))),
  };
}

/** What runs on the pool and in a transaction alike. */
function reads(executor: LobbyDb): PlayingReads & BotReads & SeekCounts & MarkReads {
  return {
    ongoingGameOf: (playerId, kinds) => ongoingGameOf(executor, playerId, kinds),
    ratedGamesBetween: (a, b, since) => ratedGamesBetween(executor, a, b, since),
    isBotAccount: (playerId) => isBotAccount(executor, playerId),
    isEngineMarked: (playerId) => isEngineMarkedPlayer(executor, playerId),
    countOpenSeeks: (playerId, at) => countOpenSeeks(executor, playerId, at),
    countOpenSeeksFrom: (key, at) => countOpenSeeksFrom(executor, key, at),
  };
}

function inTransaction(trx: LobbyDb): LobbyTx {
  return {
    ...reads(trx),
    lockQuota: (kind, owner) => lockQuota(trx, kind, owner),
    lockPlayers: (playerIds) => lockPlayers(trx, playerIds),
    withdrawOpenSeeks: (playerIds, at, kinds) => withdrawOpenSeeks(trx, playerIds, at, kinds),
    lockSeekPool: (poolKey) => lockSeekPool(trx, poolKey),
    openSeeksInPool: (poolKey, excludingPlayer, at) => openSeeksInPool(trx, poolKey, excludingPlayer, at),
    attempt: (fn) => attempt(trx, fn),
    lockOpenSeek: (id, at) => lockOpenSeek(trx, id, at),
    markSeekPaired: (id, gameId, side) => markSeekPaired(trx, id, gameId, side),
    insertSeek: (seek, paired) => insertSeek(trx, seek, paired),
    lockChallenge: (id) => lockChallenge(trx, id),
    closeChallenge: (id, status, gameId) => closeChallenge(trx, id, status, gameId),
    insertChallenge: (challenge) => insertChallenge(trx, challenge),
    countPendingChallenges: (challengerId, at) => countPendingChallenges(trx, challengerId, at),
    lockRematches: (gameId) => lockRematches(trx, gameId),
    rematchesOf: (gameId, at) => rematchesOf(trx, gameId, at),
  };
}
