/**
 * infra/prometheus/ as Debian's promtool reads it: the scrape configuration and the rules
 * are valid, and the rules' unit tests (rules.test.yml: each alert fires on what should fire
 * it, and only then) pass.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const PROMTOOL = '/usr/bin/promtool';
const dir = fileURLToPath(new URL('../../infra/prometheus/', import.meta.url));
const run = (...args: string[]) => promisify(execFile)(PROMTOOL, args, { cwd: dir });

test.each([
  [['check', 'config', 'prometheus.yml']],
  [['check', 'rules', 'rules.yml']],
  [['test', 'rules', 'rules.test.yml']],
])('promtool %j', async (args) => {
  if (!existsSync(PROMTOOL)) throw new Error(`${PROMTOOL} is missing: apt-get install -y prometheus`);
  const { stdout } = await run(...args);
  expect(stdout).toContain('SUCCESS');
});
