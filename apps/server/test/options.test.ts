import { describe, expect, test } from 'vitest';
import { parseLaunchOptions } from '../src/options.js';

describe('launch options', () => {
  test('defaults: everything in one process, with the demo, on port 3000', () => {
    expect(parseLaunchOptions([], {})).toMatchObject({ role: 'all', demo: true, publicUrl: 'http://localhost:3000' });
  });

  test.each([
    [['--no-demo'], {}, { role: 'all', demo: false }],
    [[], { DEMO: '0' }, { demo: false }],
    [['--role', 'gateway'], {}, { role: 'gateway', demo: true }],
    [['--role=worker'], {}, { role: 'worker', demo: false }],
    [['--role', 'engine'], {}, { role: 'engine', demo: false }],
    [[], { PORT: '4000' }, { publicUrl: 'http://localhost:4000' }],
  ])('%j %j', (argv, env, expected) => {
    expect(parseLaunchOptions(argv, env)).toMatchObject(expected);
  });

  test.each([[['--role', 'chef']], [['--frobnicate']]])('%j is an error', (argv) => {
    expect(parseLaunchOptions(argv, {})).toHaveProperty('error');
  });
});

describe('LOBBY_BOT_WAIT_SECONDS', () => {
  test.each([
    [undefined, 20_000],
    ['0', 0],
    ['45', 45_000],
    ['', 20_000],
    ['-1', 20_000],
    ['1.5', 20_000],
    ['soon', 20_000],
  ])('%j: %d ms', (value, ms) => {
    expect(parseLaunchOptions([], value === undefined ? {} : { LOBBY_BOT_WAIT_SECONDS: value })).toMatchObject({
      seekWaitMs: ms,
    });
  });
});
