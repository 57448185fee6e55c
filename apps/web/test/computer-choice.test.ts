import { describe, expect, test } from 'vitest';
import { clockToOffer, levelToOffer, parseComputerChoice } from '../src/prefs/computer.js';
import { CLOCK_PRESETS } from '../src/shogi/clock-presets.js';

const LEVELS = [
  { id: 'engine-1', level: 1 },
  { id: 'engine-3', level: 3 },
  { id: 'engine-8', level: 8 },
];

describe('Play the computer remembers the level and the clock', () => {
  test('the level played last is offered while the server runs it, else the weakest', () => {
    expect(levelToOffer(LEVELS, { level: 3, clock: null })?.id).toBe('engine-3');
    expect(levelToOffer(LEVELS, { level: 5, clock: null })?.id).toBe('engine-1');
    expect(levelToOffer(LEVELS, { level: null, clock: null })?.id).toBe('engine-1');
    expect(levelToOffer([], { level: 3, clock: null })).toBeNull();
  });

  test('the clock played last is offered, else the first', () => {
    expect(clockToOffer(CLOCK_PRESETS, { level: null, clock: '10|30' })).toBe(1);
    expect(clockToOffer(CLOCK_PRESETS, { level: null, clock: 'no clock' })).toBe(2);
    expect(clockToOffer(CLOCK_PRESETS, { level: null, clock: '1|1' })).toBe(0);
  });

  test('what is kept is read back; anything unreadable is no choice', () => {
    expect(parseComputerChoice('{"level":4,"clock":"3|10"}')).toEqual({ level: 4, clock: '3|10' });
    expect(parseComputerChoice('{"level":"4"}')).toEqual({ level: null, clock: null });
    expect(parseComputerChoice('not json')).toEqual({ level: null, clock: null });
    expect(parseComputerChoice(null)).toEqual({ level: null, clock: null });
  });
});
