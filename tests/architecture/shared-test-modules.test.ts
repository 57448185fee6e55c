/**
 * The unit and integration tiers run their files without isolation (vitest.config.ts): the
 * files of one worker share one module graph, so the server's sources are imported once per
 * worker instead of once per file. That holds only while no file changes what the others
 * import or see: no module mocks, no stubbed globals or environment, no fake timers. This test
 * reads every file of those tiers and names any that does.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles, workspacesOf } from './workspace-graph.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** What would leak from one file into the next in a shared module graph. */
const LEAKS = /\bvi\.(mock|doMock|hoisted|stubEnv|stubGlobal|useFakeTimers|resetModules)\b/;

/** The files of the tiers that run without isolation, and the helpers beside them. */
const sharedTierFiles = (): string[] => [
  ...workspacesOf(root).flatMap((workspace) => sourceFiles(join(root, workspace.dir, 'test'))),
  ...sourceFiles(join(root, 'tests/integration')),
  ...sourceFiles(join(root, 'tests/architecture')),
];

describe('test files that share a module graph', () => {
  it('mock no module, stub no global or environment variable, and fake no timer', () => {
    const files = sharedTierFiles();
    expect(files.length).toBeGreaterThan(100);
    const leaking = files
      .filter((file) => !file.endsWith('shared-test-modules.test.ts'))
      .filter((file) => LEAKS.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(leaking).toEqual([]);
  });
});
