/**
 * The phases of a CSA connection, and what %%WHO shows of each (shogi-server's statuses).
 * Pure: the session (session.ts) moves from one to the next.
 */
import type { CsaGameName } from './game-name.js';
import type { WaitingEntry } from './pairing-store.js';
import type { PlayerGame } from './player-game.js';
import type { PendingProposal } from './proposal-phase.js';
import type { Presence } from './x1-lines.js';

export type State =
  /** connected, no LOGIN yet */
  | { readonly kind: 'login' }
  /** logged in (x1) and looking for nothing */
  | { readonly kind: 'idle' }
  /** queued under a game name; its entry renewed while it waits */
  | {
      readonly kind: 'waiting';
      readonly game: CsaGameName;
      readonly entry: WaitingEntry;
      readonly renew: NodeJS.Timeout;
    }
  /** told a proposal: its AGREE or REJECT awaited, then the start */
  | { readonly kind: 'proposed'; readonly pending: PendingProposal }
  | { readonly kind: 'playing'; readonly game: PlayerGame }
  | { readonly kind: 'closed' };

/** shogi-server's statuses, as %%WHO shows them; null: not shown */
const STATUS = {
  login: null,
  idle: 'connected',
  waiting: 'game_waiting',
  proposed: 'agree_waiting',
  playing: 'game',
  closed: null,
} as const satisfies Record<State['kind'], string | null>;

/** What %%WHO shows of a session in `state`; null before its login and once closed. */
export function presenceOf(state: State, name: string, x1: boolean): Presence | null {
  const status = STATUS[state.kind];
  return status === null ? null : { name, mode: x1 ? 'x1' : 'CSA', status };
}

/** An x1 player may look for a game (and hears %%CHAT) only when not in a proposal or a game. */
export const isFree = (state: State): boolean => state.kind === 'idle' || state.kind === 'waiting';
