/**
 * Security headers on every answer (@fastify/helmet). The web client keeps its bearer token
 * in localStorage, where any script running in the page could read it: the
 * Content-Security-Policy lets only the client's own files run (no inline script, no eval,
 * nothing from another origin), and lets the page talk only to its own origin, WebSockets
 * included. No page may frame this one (clickjacking), no URL leaks in a Referer, and no
 * answer is sniffed into another type. HSTS is left to the TLS-terminating proxy (the
 * gateway speaks plain HTTP), as is upgrade-insecure-requests, which would break a plain-HTTP
 * deployment on a private network.
 */
import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// a host name, IPv4 or bracketed IPv6 address, and a port: nothing that could end a directive
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * The page's own origin for WebSockets. CSP Level 3 counts ws:/wss: of the page's host as
 * 'self', but browsers that predate it do not; naming them works in both. A Host header that
 * is not a plain host leaves 'self' alone.
 */
export function webSocketSources(host: string | undefined): string {
  return host !== undefined && HOST.test(host) ? `ws://${host} wss://${host}` : '';
}

export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'base-uri': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  // the client's favicon is an empty data: URL
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'", (req: IncomingMessage) => webSocketSources(req.headers.host)],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

export default fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: false,
    });
  },
  { name: 'security-headers' },
);
