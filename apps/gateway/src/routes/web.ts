/**
 * The web client (apps/web, built by Vite into apps/web/dist) at `/`. A path naming a
 * built file gets that file; any other page path gets index.html, so the client's own
 * router handles /games/:id and /stats on a reload. /api and /docs are never shadowed:
 * an unknown path there stays the API's JSON 404. Anything that could step out of the
 * build folder (`..`, backslashes, NUL, dot files) is a 404 before the disk is touched.
 */
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface WebOptions {
  /** the built client; defaults to apps/web/dist beside this app */
  readonly root?: string;
}

// src/routes and dist/routes are both two levels below apps/gateway
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

const RESERVED = /^\/(api|docs)(\/|$)/;
/** a segment of a servable path: no dot files, no `..`, nothing outside this set */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** The file a URL path names inside the build folder, or null when it may not name one. */
export function servablePath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const segments = decoded.split('/').filter((s) => s !== '');
  if (!segments.every((s) => SEGMENT.test(s))) return null;
  return segments.join('/');
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Shogi</title>
<p>The web client is not built. Run <code>npm run build</code> (or <code>npm install</code>), then reload.
The API is at <a href="/docs">/docs</a>.</p>`;

export default async function web(app: FastifyInstance, options: WebOptions): Promise<void> {
  const root = options.root ?? DEFAULT_WEB_ROOT;
  const built = existsSync(`${root}/index.html`);
  if (built) await app.register(fastifyStatic, { root, serve: false, dotfiles: 'deny', index: false });
  else app.log.warn({ root }, 'web: the client is not built; / explains how to build it');

  const page = (reply: FastifyReply) => {
    if (!built) return reply.type('text/html; charset=utf-8').send(NOT_BUILT);
    // the page names hashed assets: it must be revalidated so a new build is picked up
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (RESERVED.test(path)) return reply.callNotFound();
    const file = servablePath(path);
    if (file === null) return reply.callNotFound();
    if (file === '' || file === 'index.html') return page(reply);
    if (built && isFile(`${root}/${file}`)) {
      // Vite names assets by content hash, so they never change under one name
      const immutable = file.startsWith('assets/');
      return reply.sendFile(file, { maxAge: immutable ? '365d' : 0, immutable });
    }
    // a missing asset is a 404; anything else is a page of the client's router
    if (/\.[A-Za-z0-9]+$/.test(file)) return reply.callNotFound();
    return page(reply);
  };
  app.get('/', { schema: { hide: true } }, handler);
  app.get('/*', { schema: { hide: true } }, handler);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
