/**
 * The authenticated long-lived connections of one gateway (player and lobby sockets, and the
 * NDJSON streams a token opens: lishogi's event and game streams): how many each client address
 * (an IPv6 client by its /64) and each player holds, so that one of them cannot exhaust the
 * gateway, and which token each was opened with, so that a revoked or expired token closes
 * them at once. Pure bookkeeping: the caller closes what `revoke` hands back.
 */
import { addressKey } from './client-address.js';

export interface SocketLimits {
  /** open authenticated connections per client address (0: no limit) */
  readonly perIp: number;
  /** open authenticated connections per player, whatever the token: an account's tokens share it (0: no limit) */
  readonly perPlayer: number;
}

export interface SocketOwner {
  readonly ip: string;
  readonly playerId: string;
  readonly tokenHash: string;
  /**
   * A bot this server runs (its house bots, which play many games at once from the server's
   * own address): tracked for revocation, never counted against the limits meant for clients.
   */
  readonly exempt?: boolean;
}

export type Refusal = 'ip' | 'player';

export class AuthedSockets<S> {
  private readonly byIp = new Map<string, number>();
  private readonly byPlayer = new Map<string, number>();
  private readonly byToken = new Map<string, Set<S>>();
  private readonly owners = new Map<S, SocketOwner>();

  private readonly limits: SocketLimits;

  constructor(limits: SocketLimits) {
    this.limits = limits;
  }

  /** Which limit one more socket of this owner would pass, or null when there is room. */
  refusal(owner: Pick<SocketOwner, 'ip' | 'playerId' | 'exempt'>): Refusal | null {
    if (owner.exempt === true) return null;
    const { perIp, perPlayer } = this.limits;
    if (perIp > 0 && (this.byIp.get(addressKey(owner.ip)) ?? 0) >= perIp) return 'ip';
    if (perPlayer > 0 && (this.byPlayer.get(owner.playerId) ?? 0) >= perPlayer) return 'player';
    return null;
  }

  /** Counts an open socket; refused (nothing counted) when a limit is reached. */
  add(socket: S, owner: SocketOwner): Refusal | null {
    if (this.owners.has(socket)) return null;
    const refused = this.refusal(owner);
    if (refused !== null) return refused;
    this.owners.set(socket, owner);
    if (owner.exempt !== true) {
      bump(this.byIp, addressKey(owner.ip), 1);
      bump(this.byPlayer, owner.playerId, 1);
    }
    const sockets = this.byToken.get(owner.tokenHash) ?? new Set<S>();
    sockets.add(socket);
    this.byToken.set(owner.tokenHash, sockets);
    return null;
  }

  delete(socket: S): void {
    const owner = this.owners.get(socket);
    if (owner === undefined) return;
    this.owners.delete(socket);
    if (owner.exempt !== true) {
      bump(this.byIp, addressKey(owner.ip), -1);
      bump(this.byPlayer, owner.playerId, -1);
    }
    const sockets = this.byToken.get(owner.tokenHash);
    sockets?.delete(socket);
    if (sockets?.size === 0) this.byToken.delete(owner.tokenHash);
  }

  /** The sockets opened with this token, forgotten here: the caller closes them. */
  revoke(tokenHash: string): S[] {
    const sockets = [...(this.byToken.get(tokenHash) ?? [])];
    for (const s of sockets) this.delete(s);
    return sockets;
  }

  /** The token hashes of every open socket (to check them again after a lost notice). */
  tokenHashes(): string[] {
    return [...this.byToken.keys()];
  }

  get size(): number {
    return this.owners.size;
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
