/**
 * Names people choose: every one follows the rule of @shogi/protocol (checkPlayerName), and a
 * guest player's (POST /api/players) is no copy of an account's username. Accounts win: a
 * username may be registered while a guest shows the same name (that guest keeps it: stored
 * names are never rewritten), but no new guest may take it.
 */
import { type CreatePlayerResponse, checkPlayerName, nameKey } from '@shogi/protocol';
import { ApiError } from './api-error.js';

export interface GuestDeps {
  createPlayer(name: string): Promise<CreatePlayerResponse>;
  /** whether an account has this username, compared case-insensitively */
  usernameExists(username: string): Promise<boolean>;
}

// the Username schema of @shogi/protocol: a name outside it cannot be any account's
const USERNAME = /^[a-z0-9_-]{3,24}$/;

/** Throws INVALID_NAME (the rule) or NAME_TAKEN (an account's username). */
export async function createGuest(deps: GuestDeps, rawName: string): Promise<CreatePlayerResponse> {
  const name = acceptedName(rawName);
  const key = nameKey(name);
  if (USERNAME.test(key) && (await deps.usernameExists(key))) throw new ApiError('NAME_TAKEN', name);
  return deps.createPlayer(name);
}

/** Throws INVALID_NAME; the name to store otherwise. */
export function acceptedName(rawName: string): string {
  const checked = checkPlayerName(rawName);
  if (!checked.ok) throw new ApiError('INVALID_NAME', checked.reason);
  return checked.name;
}
