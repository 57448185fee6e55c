/**
 * What the lobby's bot section offers and asks for, from `GET /api/bots` and its fields: the
 * bot one click plays, the engine levels to pick from, and the body of the game's request.
 * Pure: no DOM, so it runs in unit tests.
 */
import type { BotGameBody, BotRef, TimeControl } from '@shogi/protocol';
import { isHandicap } from '@shogi/rules';

/** The bot "Play the bot" starts a game against: the random demo bot, else any that takes games. */
export function quickBot(bots: readonly BotRef[]): BotRef | null {
  const startable = bots.filter((b) => b.seeksOnly !== true);
  return startable.find((b) => b.level === undefined) ?? startable[0] ?? null;
}

/** The engine bots, weakest first, one per level. */
export function engineLevels(bots: readonly BotRef[]): { id: string; level: number }[] {
  const byLevel = new Map<number, string>();
  for (const b of bots)
    if (b.level !== undefined && b.seeksOnly !== true && !byLevel.has(b.level)) byLevel.set(b.level, b.id);
  return [...byLevel].sort(([a], [b]) => a - b).map(([level, id]) => ({ id, level }));
}

export const levelLabel = (level: number, levels: readonly { level: number }[]): string => {
  const first = levels[0]?.level;
  const last = levels.at(-1)?.level;
  if (levels.length > 1 && level === first) return `Level ${level} (weakest)`;
  if (levels.length > 1 && level === last) return `Level ${level} (strongest)`;
  return `Level ${level}`;
};

export type Colour = 'sente' | 'gote' | 'random';

/** The request's body; `handicap` '' is an even game. */
export function botGameBody(side: Colour, timeControl: TimeControl, handicap: string): BotGameBody {
  return { side, timeControl, ...(isHandicap(handicap) ? { handicap } : {}) };
}

/** What the levels are when `GET /api/bots` says no engine runs (said where they are offered). */
export const NO_ENGINE = 'This server has no shogi engine installed, so every level plays simple built-in moves.';
