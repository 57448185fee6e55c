import type { BotRef } from '@shogi/protocol';
import { describe, expect, test } from 'vitest';
import { presetLabel } from '../src/shogi/clock-presets.js';
import { botGameBody, engineLevels, levelLabel, quickBot } from '../src/views/bot-terms.js';

// as GET /api/bots lists them with `npm start`: the demo bot, the engine levels, bot-lobby
const BOTS: BotRef[] = [
  { id: 'p-demo', name: 'demo-bot' },
  { id: 'engine-2', name: 'Engine level 2', playerId: 'p-e2', level: 2 },
  { id: 'engine-1', name: 'Engine level 1', playerId: 'p-e1', level: 1 },
  { id: 'engine-8', name: 'Engine level 8', playerId: 'p-e8', level: 8 },
  { id: 'p-lobby', name: 'bot-lobby', seeksOnly: true },
];
const BYOYOMI = { kind: 'byoyomi', mainSeconds: 600, byoyomiSeconds: 30, periods: 1 } as const;

describe("the lobby's bot section", () => {
  test('one click plays the demo bot; without it any bot that takes games; never bot-lobby', () => {
    expect(quickBot(BOTS)?.id).toBe('p-demo');
    expect(quickBot(BOTS.slice(1))?.id).toBe('engine-2');
    expect(quickBot([{ id: 'p-lobby', name: 'bot-lobby', seeksOnly: true }])).toBeNull();
    expect(quickBot([])).toBeNull();
  });

  test('the engine levels, weakest first, with the ends named', () => {
    const levels = engineLevels(BOTS);
    expect(levels).toEqual([
      { id: 'engine-1', level: 1 },
      { id: 'engine-2', level: 2 },
      { id: 'engine-8', level: 8 },
    ]);
    expect(levels.map((l) => levelLabel(l.level, levels))).toEqual([
      'Level 1 (weakest)',
      'Level 2',
      'Level 8 (strongest)',
    ]);
    expect(levelLabel(4, [{ level: 4 }])).toBe('Level 4');
  });

  test("the game's request: a handicap only when one is chosen", () => {
    expect(botGameBody('random', BYOYOMI, '')).toEqual({ side: 'random', timeControl: BYOYOMI });
    expect(botGameBody('sente', { kind: 'unlimited' }, 'bishop')).toEqual({
      side: 'sente',
      timeControl: { kind: 'unlimited' },
      handicap: 'bishop',
    });
    expect(botGameBody('gote', BYOYOMI, 'queen')).not.toHaveProperty('handicap');
  });

  test('the clocks are labelled as players write them', () => {
    expect([presetLabel(BYOYOMI), presetLabel({ kind: 'unlimited' })]).toEqual(['10|30', 'No clock']);
  });
});
