/**
 * The README's table of routes and their access is the code's table (src/access.ts), row for
 * row: a route added, removed or moved to another access fails here until both agree.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, type Access, accessOf, ROUTE_ACCESS } from '../src/access.js';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** `access → routes` from the README's "Routes and access" table. */
function readmeTable(): Map<string, Access> {
  const section = readme.split('### Routes and access')[1]?.split('\n#')[0] ?? '';
  const table = new Map<string, Access>();
  for (const line of section.split('\n')) {
    const cells = line.split(' | ');
    const access = /^\| `([\w:]+)`$/.exec(cells[0] ?? '')?.[1];
    if (access === undefined || !(ACCESS_LEVELS as readonly string[]).includes(access)) continue;
    for (const [, route] of (cells[2] ?? '').matchAll(/`([A-Z]+ [^`]+)`/g))
      if (route !== undefined) table.set(route, access as Access);
  }
  return table;
}

describe('the access table', () => {
  it('is the README’s, row for row', () => {
    expect(Object.fromEntries(readmeTable())).toEqual(ROUTE_ACCESS);
  });

  it('answers HEAD as GET and the OpenAPI pages as public; unknown routes have no access', () => {
    expect(accessOf('HEAD', '/api/games/:id')).toBe('public');
    expect(accessOf('GET', '/docs/json')).toBe('public');
    expect(accessOf('POST', '/api/nowhere')).toBeUndefined();
  });

  it('keeps game creation behind the admin scope', () => {
    expect(accessOf('POST', '/api/games')).toBe('admin');
  });
});
