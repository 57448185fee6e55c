import { describe, expect, test } from 'vitest';
import { metricsOf, parseLaunchOptions } from '../src/options.js';

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

describe('METRICS_PORT', () => {
  test('9464 on the loopback by default; 0 turns /metrics off; anything else not a port is refused', () => {
    expect(metricsOf({})).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(metricsOf({ METRICS_PORT: '9500', METRICS_HOST: '0.0.0.0' })).toEqual({ host: '0.0.0.0', port: 9500 });
    expect(metricsOf({ METRICS_PORT: '0' })).toBeNull();
    expect(metricsOf({ METRICS_PORT: 'x' })).toEqual({ error: expect.stringContaining('METRICS_PORT') });
    expect(parseLaunchOptions([], { METRICS_PORT: '70000' })).toEqual({
      error: expect.stringContaining('METRICS_PORT'),
    });
  });
});
