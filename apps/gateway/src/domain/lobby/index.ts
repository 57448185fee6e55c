/**
 * The lobby: seeks paired automatically (seeks.ts), challenges (challenges.ts) and rematch
 * offers (rematch.ts), over the store ports of ports.ts. Whatever starts a game locks both
 * players first (in id order), checks that neither is in a real-time game when the new one
 * is real-time, and withdraws their open seeks in the same transaction (start-game.ts): a
 * player is never paired twice at once, and never into a second real-time game (a bot the
 * gateway runs, which plays many games at once, is exempt). Players learn of pairings,
 * challenges and answers through `notify` (the per-player Redis channel behind the lobby
 * WebSocket) after the commit.
 */
import type { LobbyMessage, TimeControl } from '@shogi/protocol';
import { type BotTitles, NO_BOT_TITLES } from '../bot-titles.js';
import { createChallengeService } from './challenges.js';
import type { LobbyBots, LobbyGames, LobbyStore } from './ports.js';
import { createRematchService } from './rematch.js';
import { createSeekService } from './seeks.js';
import { type LobbyContext, NO_BOTS, startAlone } from './start-game.js';

export interface LobbyDeps {
  readonly store: LobbyStore;
  readonly games: LobbyGames;
  /** open seeks at once from one client address (addressKey), all its players together; 0 or absent: no limit */
  readonly maxOpenSeeksPerAddress?: number;
  /** Best effort: a lost notification is found again by polling the seek or challenge. */
  readonly notify: (playerId: string, message: LobbyMessage) => Promise<void>;
  readonly now?: () => Date;
  /** true: sente, for players who both left the colour open */
  readonly coin?: () => boolean;
  /** the bots this gateway runs: exempt from the one-real-time-game rule, and they accept rematches at once */
  readonly bots?: LobbyBots;
  /** the BOT titles of the players challenges show (none when absent) */
  readonly titles?: BotTitles;
  /** rated games one pair may start in 24 hours; 0 or absent: no cap */
  readonly ratedGamesPerPair?: number;
}

export type LobbyService = ReturnType<typeof createLobbyService>;

export function createLobbyService(deps: LobbyDeps) {
  const context: LobbyContext = {
    games: deps.games,
    notify: (playerId, message) => deps.notify(playerId, message).catch(() => undefined),
    now: deps.now ?? (() => new Date()),
    coin: deps.coin ?? (() => Math.random() < 0.5),
    bots: deps.bots ?? NO_BOTS,
    titles: deps.titles ?? NO_BOT_TITLES,
    ratedGamesPerPair: deps.ratedGamesPerPair ?? 0,
  };
  const { store } = deps;
  return {
    ...createSeekService({ ...context, store, maxOpenSeeksPerAddress: deps.maxOpenSeeksPerAddress ?? 0 }),
    ...createChallengeService({ ...context, store }),
    ...createRematchService({ ...context, store }),
    /** A game of the player's own (against a bot) under the one-real-time-game rule (start-game.ts). */
    startAlone: <T>(playerId: string, timeControl: TimeControl | undefined, start: () => Promise<T>) =>
      startAlone(store, playerId, timeControl, start),
  };
}
