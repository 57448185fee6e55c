import { describe, expect, test } from 'vitest';
import { servablePath } from '../src/routes/web.js';

describe('web client paths', () => {
  test.each([
    ['/', ''],
    ['/index.html', 'index.html'],
    ['/assets/index-Ab12.js', 'assets/index-Ab12.js'],
    ['/games/0b6e-77', 'games/0b6e-77'],
  ])('%s names %s in the build folder', (url, file) => {
    expect(servablePath(url)).toBe(file);
  });

  test.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/..%5cpackage.json',
    '/.env',
    '/assets/.hidden',
    '/%E0%A4%A', // a malformed escape
    '/a%00b',
  ])('%s names nothing', (url) => {
    expect(servablePath(url)).toBeNull();
  });
});
