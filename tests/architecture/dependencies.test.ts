/**
 * The direction of dependencies: no app imports another app (the launcher, apps/server,
 * composes them and is the one exception), and workspace packages depend on each other
 * without a cycle. Both are read from the package.json files and from the sources' import
 * specifiers, so an import that bypasses package.json counts too.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  cyclesOf,
  type ImportSite,
  importsOf,
  packageNamed,
  type Workspace,
  workspaceReached,
  workspacesOf,
} from './workspace-graph.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The one workspace allowed to depend on apps: it starts them. */
const LAUNCHER = 'apps/server';

const isApp = (w: Workspace) => w.dir.startsWith('apps/');

/** Each way an app reaches another app: a declared dependency, an import by name, a relative path. */
function appCrossings(all: readonly Workspace[], sites: ReadonlyMap<Workspace, readonly ImportSite[]>): string[] {
  const apps = new Map(all.filter(isApp).map((w) => [w.name, w]));
  const out: string[] = [];
  for (const app of apps.values()) {
    if (app.dir === LAUNCHER) continue;
    for (const dep of app.dependencies)
      if (apps.has(dep) && dep !== app.name) out.push(`${app.dir}/package.json depends on the app ${dep}`);
    for (const site of sites.get(app) ?? []) {
      const named = packageNamed(site.specifier);
      const reached = named === null ? workspaceReached(root, site.file, site.specifier, all) : apps.get(named);
      if (reached !== undefined && reached !== null && isApp(reached) && reached !== app)
        out.push(`${site.file} imports '${site.specifier}' from the app ${reached.dir}`);
    }
  }
  return out;
}

/** Workspace -> the workspaces it declares or imports. */
function workspaceGraph(all: readonly Workspace[], sites: ReadonlyMap<Workspace, readonly ImportSite[]>) {
  const names = new Set(all.map((w) => w.name));
  const graph = new Map<string, string[]>();
  for (const w of all) {
    const imported = (sites.get(w) ?? []).map((s) => packageNamed(s.specifier));
    const edges = new Set([...w.dependencies, ...imported].filter((n): n is string => n !== null && names.has(n)));
    edges.delete(w.name);
    graph.set(w.name, [...edges].sort());
  }
  return graph;
}

describe('dependencies between workspaces', () => {
  const all = workspacesOf(root);
  const sites = new Map(all.map((w) => [w, importsOf(root, w)]));

  it('finds the workspaces and their imports', () => {
    expect(all.map((w) => w.dir)).toEqual(
      expect.arrayContaining(['apps/gateway', 'apps/worker', 'apps/server', 'packages/game', 'packages/pipeline']),
    );
    const gateway = all.find((w) => w.dir === 'apps/gateway');
    expect(gateway && sites.get(gateway)?.some((s) => s.specifier === '@shogi/pipeline')).toBe(true);
  });

  it('no app imports or depends on another app, but the launcher', () => {
    expect(appCrossings(all, sites)).toEqual([]);
  });

  it('workspace packages form no cycle', () => {
    expect(cyclesOf(workspaceGraph(all, sites)).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('every workspace package a source imports is declared in its package.json', () => {
    const names = new Set(all.map((w) => w.name));
    const undeclared = all.flatMap((w) =>
      (sites.get(w) ?? []).flatMap((s) => {
        const named = packageNamed(s.specifier);
        return named !== null && names.has(named) && named !== w.name && !w.dependencies.includes(named)
          ? [`${s.file} imports ${named}, which ${w.dir}/package.json does not declare`]
          : [];
      }),
    );
    expect(undeclared).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const ws = (name: string, dir: string, dependencies: string[] = []): Workspace => ({ name, dir, dependencies });
  const gateway = ws('@x/gateway', 'apps/gateway');
  const worker = ws('@x/worker', 'apps/worker');
  const server = ws('@x/server', 'apps/server', ['@x/gateway', '@x/worker']);
  const all = [gateway, worker, server];

  it('catch an app importing another by name, by subpath, by relative path, or declaring it', () => {
    const sites = new Map<Workspace, ImportSite[]>([
      [
        gateway,
        [
          { file: 'apps/gateway/src/a.ts', specifier: '@x/worker/jobs' },
          { file: 'apps/gateway/src/b.ts', specifier: '../../worker/src/queues.js' },
          { file: 'apps/gateway/src/c.ts', specifier: './own.js' },
        ],
      ],
      [server, [{ file: 'apps/server/src/main.ts', specifier: '@x/gateway' }]],
    ]);
    const declared = [{ ...gateway, dependencies: ['@x/worker'] }, worker, server];
    expect(appCrossings(all, sites)).toEqual([
      "apps/gateway/src/a.ts imports '@x/worker/jobs' from the app apps/worker",
      "apps/gateway/src/b.ts imports '../../worker/src/queues.js' from the app apps/worker",
    ]);
    expect(appCrossings(declared, new Map())).toEqual(['apps/gateway/package.json depends on the app @x/worker']);
  });

  it('catch a cycle, declared or imported', () => {
    const a = ws('@x/a', 'packages/a', ['@x/b']);
    const b = ws('@x/b', 'packages/b');
    const c = ws('@x/c', 'packages/c', ['@x/a']);
    const imports = new Map<Workspace, ImportSite[]>([[b, [{ file: 'packages/b/src/i.ts', specifier: '@x/c/sub' }]]]);
    expect(cyclesOf(workspaceGraph([a, b, c], imports))).toEqual([['@x/a', '@x/b', '@x/c', '@x/a']]);
    expect(cyclesOf(workspaceGraph([a, b, c], new Map()))).toEqual([]);
  });
});
