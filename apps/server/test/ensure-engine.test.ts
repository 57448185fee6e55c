import { expect, test } from 'vitest';
import { type EngineFacts, planEngine } from '../src/ensure-engine.js';

const missing: EngineFacts = {
  enginePath: '/usr/games/fairy-stockfish',
  custom: false,
  found: false,
  optedOut: false,
  aptGet: true,
  root: true,
};

test('an engine in place: nothing to install', () => {
  expect(planEngine({ ...missing, found: true })).toEqual({
    action: 'none',
    message: 'Engine: /usr/games/fairy-stockfish',
  });
});

test('missing, with apt-get and root: installed', () => {
  expect(planEngine(missing)).toMatchObject({ action: 'install', message: expect.stringContaining('installing') });
});

test.each([
  ['not root', { root: false }, 'sudo apt-get install -y fairy-stockfish'],
  ['no apt-get', { aptGet: false }, 'no apt-get here'],
  ['ENGINE_INSTALL=0', { optedOut: true }, 'ENGINE_INSTALL=0'],
  ['an ENGINE_PATH of its own', { custom: true, enginePath: '/opt/engine' }, 'No engine at /opt/engine (ENGINE_PATH)'],
] as const)('missing, %s: not installed, and the message says why and what the bots do', (_, over, why) => {
  const plan = planEngine({ ...missing, ...over });
  expect(plan.action).toBe('none');
  expect(plan.message).toContain(why);
  expect(plan.message).toContain('play simple built-in moves');
});
