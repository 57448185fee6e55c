/**
 * The ceiling of bench/fanout: a bare `ws` broadcast server with one Redis pattern
 * subscriber. A socket on /g/<gameId> receives every message published on that game's
 * channel, as published (encoded once, written to each socket). No ordering, no catch-up,
 * no snapshot, no bounds: what the gateway's fan-out is measured against.
 *
 *   PORT=... REDIS_URL=... CHANNEL_PREFIX=... node --import tsx bench/fanout/bare-server.ts
 */
import { createServer } from 'node:http';
import { redisClient } from '@shogi/redis';
import { type WebSocket, WebSocketServer } from 'ws';

const port = Number(process.env.PORT ?? 3999);
const prefix = `${process.env.CHANNEL_PREFIX ?? ''}game:`;
const games = new Map<string, Set<WebSocket>>();

const server = createServer((_req, res) => {
  res.writeHead(404).end();
});
const wss = new WebSocketServer({ server, maxPayload: 1024 });
wss.on('connection', (ws, req) => {
  const id = (req.url ?? '').slice('/g/'.length);
  let set = games.get(id);
  if (!set) {
    set = new Set();
    games.set(id, set);
  }
  set.add(ws);
  ws.on('close', () => set.delete(ws));
  ws.on('error', () => undefined);
});

// one Redis: a pattern subscription (a cluster's sharded channels have none)
const sub = redisClient({ redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }, 'bench-bare-ws');
sub.on('pmessageBuffer', (_pattern: string, channel: Buffer, message: Buffer) => {
  const set = games.get(channel.toString('latin1').slice(prefix.length));
  if (!set) return;
  for (const ws of set) ws.send(message, { binary: false });
});
await sub.psubscribe(`${prefix}*`);
server.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${port}\n`));
process.on('SIGTERM', () => process.exit(0));
