/**
 * `LOGIN <name> <password> [x1]`: who the player is. Without a trip the player is a guest named
 * `<name>`, made as `POST /api/players` makes one (the name rule, no account's username, the
 * per-address guest limit); with one, the trip is a personal API token of the account
 * `<name>` holding the `csa:play` scope. A wrong trip counts against the address like an
 * unknown bearer token, and against the account (AUTH_FAILURES_MAX each), and every refusal
 * reads `LOGIN:incorrect`. Past either count a trip is looked up only if the gateway's filter
 * of every valid token may hold it: the right trip still gets in, and a guess costs no lookup.
 */
import type { Principal } from '../domain/auth.js';
import type { Player } from '../domain/player.js';
import { type CsaGameName, parsePassword } from './game-name.js';
import { IDENTIFIER } from './lines.js';

export interface LoginDeps {
  /** a new guest player, as POST /api/players makes one from this address; throws when refused */
  createGuest(name: string, ip: string): Promise<Player>;
  /** the principal of a bearer token, or null when it is unknown, revoked or expired */
  principalOf(token: string): Promise<Principal | null>;
  /** the token may be valid (never false for a valid one): it may be looked up whatever the counts */
  mayBeValid(token: string): boolean;
  /** seconds before this address's or account's trips are looked up whatever the filter; 0 now */
  blockedFor(ip: string, name: string): number;
  /** counts a wrong token from this address for this account */
  failed(ip: string, name: string): void;
}

export type LoginOutcome =
  | {
      readonly ok: true;
      readonly player: Player;
      /** the name the player logged in with, which the protocol's lines use */
      readonly name: string;
      /** logged in with a trip: an account's games can be rated */
      readonly trip: boolean;
      /** the plain mode's game; null in the x1 mode */
      readonly game: CsaGameName | null;
    }
  | { readonly ok: false; readonly reason: string };

const refused = (reason: string): LoginOutcome => ({ ok: false, reason });

export async function login(
  deps: LoginDeps,
  line: { readonly name: string; readonly password: string; readonly x1: boolean },
  ip: string,
): Promise<LoginOutcome> {
  if (!IDENTIFIER.test(line.name)) return refused('a name is 1 to 32 of A-Z a-z 0-9 _ @ . -');
  const password = parsePassword(line.password, line.x1);
  if (password === null) return refused('the password names no game');
  const { game, trip } = password;
  if (trip === null) {
    try {
      const player = await deps.createGuest(line.name, ip);
      return { ok: true, player: { id: player.id, name: player.name }, name: line.name, trip: false, game };
    } catch (err) {
      return refused(`no guest: ${(err as Error).message}`);
    }
  }
  // past the failures a guess costs no lookup, and the right trip, one of the account's, still gets in
  if (deps.blockedFor(ip, line.name) > 0 && !deps.mayBeValid(trip)) {
    deps.failed(ip, line.name);
    return refused('too many wrong tokens from this address or for this account');
  }
  const principal = await deps.principalOf(trip);
  const holds =
    principal !== null &&
    principal.token.kind === 'personal' &&
    principal.token.scopes.includes('csa:play') &&
    principal.username !== null &&
    principal.username.toLowerCase() === line.name.toLowerCase();
  if (!holds) {
    deps.failed(ip, line.name);
    return refused('the trip is no csa:play token of this account');
  }
  return { ok: true, player: { id: principal.id, name: principal.name }, name: line.name, trip: true, game };
}
