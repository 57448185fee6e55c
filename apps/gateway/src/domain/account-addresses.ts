/**
 * Related accounts for fair play: the gateway records, per account, a keyed hash of the client
 * address it registered or logged in from (HMAC-SHA256 of the address's key, so an IPv6 client
 * is its /64), never the address, so a moderator sees which accounts share an address while a
 * copy of the table alone names none.
 */
import { createHmac } from 'node:crypto';
import { type FairplayDb, recordAccountAddress, storedAddressKey } from '@shogi/store';
import { addressKey } from './client-address.js';

/** The address's hash under the key: base64url, pure. */
export const addressHash = (key: string, ip: string): string =>
  createHmac('sha256', key).update(addressKey(ip)).digest('base64url');

export interface AccountAddresses {
  record(playerId: string, ip: string): Promise<void>;
}

export function accountAddresses(db: FairplayDb, configuredKey: string | null): AccountAddresses {
  let key: Promise<string> | null = configuredKey === null ? null : Promise.resolve(configuredKey);
  const keyOf = (): Promise<string> => {
    if (key === null) {
      key = storedAddressKey(db);
      // a failed read is tried again on the next login, not kept
      key.catch(() => {
        key = null;
      });
    }
    return key;
  };
  return {
    async record(playerId, ip) {
      await recordAccountAddress(db, playerId, addressHash(await keyOf(), ip), new Date());
    },
  };
}
