/**
 * Every answer carries the security headers: a strict Content-Security-Policy (the web client
 * keeps its token in localStorage, so nothing but its own files may run in its pages), no
 * framing, no Referer, no sniffing. tests/e2e/web.test.ts checks the client and the API docs
 * work under it in Chromium.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Stack, startStack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

const get = (url: string, host = 'shogi.example:8443') => stack.app.inject({ method: 'GET', url, headers: { host } });

/** The policy as directive → sources. */
function policy(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    (header as string)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0] !== '')
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

test.each(['/', '/games/some-game', '/api/live', '/api/no-such-route', '/docs', '/docs/json', '/health'])(
  '%s carries the security headers',
  async (url) => {
    const res = await get(url);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const csp = policy(res.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
  },
);

test('the web page may run only its own scripts and styles, and talk only to its own origin', async () => {
  const res = await get('/');
  expect(res.statusCode).toBe(200);
  const csp = policy(res.headers['content-security-policy']);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('script-src-attr')).toEqual(["'none'"]);
  expect(csp.get('style-src')).toEqual(["'self'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('connect-src')).toEqual(["'self'", 'ws://shogi.example:8443', 'wss://shogi.example:8443']);
  expect(res.headers['content-security-policy']).not.toMatch(/unsafe-(inline|eval)|\*/);
});

test('a Host header that is no host cannot write into the policy', async () => {
  for (const host of ["evil.example; script-src 'unsafe-inline'", 'a b', 'x,y']) {
    const csp = policy((await get('/', host)).headers['content-security-policy']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
  }
  const v6 = policy((await get('/', '[::1]:3000')).headers['content-security-policy']);
  expect(v6.get('connect-src')).toEqual(["'self'", 'ws://[::1]:3000', 'wss://[::1]:3000']);
});

test('the OpenAPI UI is served under the same policy', async () => {
  const page = await get('/docs');
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  // its scripts are files, which 'self' allows
  expect(page.body).toMatch(/<script src=/);
  expect(page.body).not.toMatch(/<script>|<style|style="/);
  const csp = policy(page.headers['content-security-policy']);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  // the Swagger logo's one inline <style>, by its hash, and no other
  expect(csp.get('style-src')).toEqual(["'self'", "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"]);
  // the web client's pages do not get that exception
  expect(policy((await get('/')).headers['content-security-policy']).get('style-src')).toEqual(["'self'"]);
});
