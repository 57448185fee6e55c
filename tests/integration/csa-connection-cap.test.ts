/**
 * The CSA connection cap (SOCKET_MAX_PER_IP per address on each gateway) counts an IPv6 client
 * by its /64, as every per-address limit does: one home network's addresses are one address.
 * The test's connections come from 127.0.0.1 and are given IPv6 peers, by their local port,
 * where the gateway reads the peer's address.
 */
import { syncBuiltinESMExports } from 'node:module';
import net, { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type CsaStack, startCsaStack } from './harness.js';

let stack: CsaStack;
const MAX = 3;
/** the address the gateway sees for a connection from this local port */
const peers = new Map<number, string>();

beforeAll(async () => {
  // the CSA listener's server, made while the gateway starts, hands its sockets over with the
  // peer's address the test chose
  const createServer = net.createServer;
  net.createServer = ((...args: unknown[]) => {
    const listener = args.find((a) => typeof a === 'function') as ((socket: Socket) => void) | undefined;
    if (listener === undefined) return createServer(...(args as Parameters<typeof createServer>));
    const options = args.find((a) => typeof a === 'object' && a !== null) as net.ServerOpts | undefined;
    return createServer(options ?? {}, (socket: Socket) => {
      const real = socket.remoteAddress;
      const port = socket.remotePort;
      Object.defineProperty(socket, 'remoteAddress', {
        value: (port === undefined ? undefined : peers.get(port)) ?? real,
      });
      listener(socket);
    });
  }) as typeof net.createServer;
  syncBuiltinESMExports();
  try {
    stack = await startCsaStack({ socketMaxPerIp: MAX });
  } finally {
    net.createServer = createServer;
    syncBuiltinESMExports();
  }
});

afterAll(async () => {
  await stack?.close();
});

let nextPort = 40_000 + Math.floor(Math.random() * 10_000);

/** A connection from `address` (as the gateway sees it); resolves once it is open, with its close. */
async function from(address: string): Promise<{ socket: Socket; closedWithin(ms: number): Promise<boolean> }> {
  for (;;) {
    const localPort = nextPort++;
    peers.set(localPort, address);
    const socket = connect({ port: stack.csaPort, host: '127.0.0.1', localAddress: '127.0.0.1', localPort });
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    if (!opened) continue; // the port was taken: another one
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    return {
      socket,
      closedWithin: (ms) =>
        Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]),
    };
  }
}

test('CSA connections from one IPv6 /64 share one cap; another /64 has its own', async () => {
  const held = [];
  for (let i = 1; i <= MAX; i++) held.push(await from(`2001:db8:1:2::${i}`));
  for (const c of held) expect(await c.closedWithin(50)).toBe(false);
  // another address of the same network: past the cap, closed at once
  const over = await from('2001:db8:1:2:ffff::9');
  expect(await over.closedWithin(1_000)).toBe(true);
  // another network is another address
  const elsewhere = await from('2001:db8:1:3::1');
  expect(await elsewhere.closedWithin(300)).toBe(false);
  for (const c of [...held, elsewhere]) c.socket.destroy();
});
