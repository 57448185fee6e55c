/**
 * The auth service's store port (domain/auth.ts AuthStore) over @shogi/store's accounts and
 * tokens, and the source of the gateway's filter of valid tokens.
 */
import {
  changePasswordHash,
  countActiveTokens,
  createAccount,
  type Db,
  ensurePlayer,
  findAccountById,
  findAccountByUsername,
  findCredential,
  insertToken,
  listActiveTokens,
  lockQuota,
  replaceGuestTokenHash,
  resetPasswordHash,
  revokeToken,
  scanValidTokenHashes,
} from '@shogi/store';
import type { AuthStore } from '../domain/auth.js';
import type { ValidTokenSource } from '../domain/valid-tokens.js';

export function authStoreOver(db: Db): AuthStore {
  return {
    findCredential: (tokenHash) => findCredential(db, tokenHash),
    findAccountByUsername: (username) => findAccountByUsername(db, username),
    findAccountById: (playerId) => findAccountById(db, playerId),
    createAccount: (account) => createAccount(db, account),
    insertToken: (token) => insertToken(db, token),
    insertPersonalToken: (token, limit, now) =>
      db.transaction().execute(async (trx) => {
        await lockQuota(trx, 'tokens', token.playerId);
        if ((await countActiveTokens(trx, token.playerId, 'personal', now)) >= limit) return 'full' as const;
        return insertToken(trx, token);
      }),
    replaceGuestTokenHash: (playerId, oldHash, newHash) => replaceGuestTokenHash(db, playerId, oldHash, newHash),
    changePasswordHash: (change) => changePasswordHash(db, change),
    resetPasswordHash: (username, newHash, now, revokePersonal) =>
      resetPasswordHash(db, username, newHash, now, revokePersonal),
    revokeToken: (playerId, which, now) => revokeToken(db, playerId, which, now),
    listActiveTokens: (playerId, now) => listActiveTokens(db, playerId, now),
    ensurePlayer: async (player) => {
      const row = await ensurePlayer(db, player);
      return { id: row.id, name: row.name };
    },
  };
}

/** The valid tokens' hashes (domain/valid-tokens.ts) in PostgreSQL. */
export function validTokenSourceOver(db: Db): ValidTokenSource {
  return { scan: (counted, batch) => scanValidTokenHashes(db, new Date(), counted, batch) };
}
