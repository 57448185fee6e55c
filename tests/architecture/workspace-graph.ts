/**
 * The workspaces of this repository as a graph: each workspace's declared dependencies
 * (package.json) and the modules its sources import, read with TypeScript's own scanner.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface Workspace {
  readonly name: string;
  /** relative to the repository root, e.g. `apps/gateway` */
  readonly dir: string;
  readonly dependencies: readonly string[];
}

export interface ImportSite {
  /** relative to the repository root */
  readonly file: string;
  readonly specifier: string;
}

interface PackageJson {
  readonly name?: string;
  readonly workspaces?: readonly string[];
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

const readJson = (file: string): PackageJson => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;

/** The workspaces the root package.json names (`folder/*` patterns). */
export function workspacesOf(root: string): Workspace[] {
  const out: Workspace[] = [];
  for (const pattern of readJson(join(root, 'package.json')).workspaces ?? []) {
    if (!pattern.endsWith('/*')) throw new Error(`workspace pattern not understood: ${pattern}`);
    const parent = pattern.slice(0, -2);
    if (!existsSync(join(root, parent))) continue;
    for (const entry of readdirSync(join(root, parent)).sort()) {
      const file = join(root, parent, entry, 'package.json');
      if (!existsSync(file)) continue;
      const json = readJson(file);
      if (json.name === undefined) continue;
      const dependencies = Object.keys({
        ...json.dependencies,
        ...json.devDependencies,
        ...json.peerDependencies,
        ...json.optionalDependencies,
      });
      out.push({ name: json.name, dir: `${parent}/${entry}`, dependencies });
    }
  }
  return out;
}

/** The script and TypeScript files under `dir` (none when it is missing), without node_modules, dist and declarations. */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** Every import, export-from, dynamic import and require specifier in the workspace's `src`. */
export function importsOf(root: string, workspace: Workspace): ImportSite[] {
  const out: ImportSite[] = [];
  for (const path of sourceFiles(join(root, workspace.dir, 'src'))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    for (const f of importedFiles) out.push({ file: relative(root, path), specifier: f.fileName });
  }
  return out;
}

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`); null for relative and `node:` ones. */
export function packageNamed(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

/** The workspace directory a relative specifier of `file` lands in, if any. */
export function workspaceReached(root: string, file: string, specifier: string, all: readonly Workspace[]) {
  if (!specifier.startsWith('.')) return null;
  const target = relative(root, resolve(root, dirname(file), specifier));
  return all.find((w) => target === w.dir || target.startsWith(`${w.dir}/`)) ?? null;
}

/** The cycles of a directed graph, each as the path that closes it (`a -> b -> a`); none when acyclic. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
