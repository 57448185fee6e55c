/**
 * One of two gateways killed with SIGKILL mid-game (issue 8). Gateway A is a child process
 * (apps/gateway/src/server.ts), gateway B runs in this process with the worker. Both
 * players and a spectator are connected to A, a second spectator to B. A is killed just
 * after a move was sent, its answer unknown; every client reconnects to B with the last
 * seq it saw (`after=` for players, `since=` for the spectator), the mover sends the same
 * move again under the same idempotency key, and the game is played to its end. Each
 * client ends with the whole ordered stream (no gap, no repeat across the reconnect) and
 * the full move list; the audit holds.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WireEvent } from '@shogi/protocol';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { type Acknowledged, auditWhenSettled } from './audit.js';
import { Conditions } from './conditions.js';
import { MATE_GAME } from './fixtures.js';
import { bearer, call, freePort, REDIS_ENV, type Stack, startStack } from './harness.js';

const SERVER = fileURLToPath(new URL('../../apps/gateway/src/server.ts', import.meta.url));
/** the move sent just before gateway A dies */
const KILL_AT_PLY = 9;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let stack: Stack;
let child: ChildProcess | null = null;
let urlA: string;

async function startGatewayProcess(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const proc = fork(SERVER, [], {
    execArgv: ['--import', 'tsx', '--conditions=@shogi/source'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: stack.config.databaseUrl,
      ...REDIS_ENV,
      QUEUE_PREFIX: stack.config.queuePrefix,
      CHANNEL_PREFIX: stack.config.channelPrefix,
      // no CSA listener: 4081 may be taken on the machine running the tests
      CSA_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    proc.once('exit', (code) => reject(new Error(`gateway A exited early (${code})`))),
  );
  const deadline = Date.now() + 30_000;
  const ready = (async () => {
    for (;;) {
      const ok = await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error('gateway A did not start');
      await sleep(50);
    }
  })();
  await Promise.race([ready, exited]);
  exited.catch(() => undefined);
  return { child: proc, url };
}

beforeAll(async () => {
  stack = await startStack({ listen: true });
  ({ child, url: urlA } = await startGatewayProcess());
}, 60_000);
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await stack?.close();
});

const wsBase = (url: string) => url.replace(/^http/, 'ws');

/**
 * A client that keeps the game's stream: it checks every event follows the last one it
 * saw, and on a lost connection reconnects (to `fallback`) asking for what follows.
 */
class StreamClient {
  readonly events: WireEvent[] = [];
  readonly problems: string[] = [];
  readonly closes: number[] = [];
  readonly frames: Record<string, unknown>[] = [];
  ws: WebSocket | null = null;
  private readonly conditions = new Conditions();
  private onReconnect: (() => void) | null = null;

  readonly name: string;
  private readonly path: (lastSeq: number | null) => string;
  private readonly fallback: string;

  private readonly headers: Record<string, string>;

  constructor(
    name: string,
    path: (lastSeq: number | null) => string,
    fallback: string,
    headers: Record<string, string> = {},
  ) {
    this.name = name;
    this.path = path;
    this.fallback = fallback;
    this.headers = headers;
  }

  get lastSeq(): number | null {
    return this.events.at(-1)?.seq ?? this.snapshotSeq;
  }
  snapshotSeq: number | null = null;

  get moves(): string[] {
    return this.events.filter((e) => e.type === 'MoveAccepted').map((e) => String(e.payload.usi));
  }

  reconnected(handler: () => void): void {
    this.onReconnect = handler;
  }

  async connect(baseUrl: string): Promise<void> {
    const ws = new WebSocket(`${wsBase(baseUrl)}${this.path(this.lastSeq)}`, { headers: this.headers });
    this.ws = ws;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      this.frames.push(m);
      if (m.type === 'snapshot') this.snapshotSeq = Number((m.game as { seq: number }).seq);
      if (m.type === 'events') {
        for (const e of m.events as WireEvent[]) {
          const expected = (this.lastSeq ?? 0) + 1;
          if (e.seq !== expected) this.problems.push(`${this.name}: seq ${e.seq} where ${expected} was due`);
          if (e.seq >= expected) this.events.push(e);
        }
      }
      if (m.type === 'error') this.problems.push(`${this.name}: error frame ${JSON.stringify(m)}`);
      this.conditions.notify();
    });
    ws.on('close', (code) => {
      this.closes.push(code);
      if (this.ws !== ws || code === 1000) return;
      // the gateway is gone: reconnect to the other one with the last seq seen
      void this.reconnect();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`${this.name}: upgrade refused ${res.statusCode}`)),
      );
    });
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        await this.connect(this.fallback);
        this.onReconnect?.();
        return;
      } catch {
        await sleep(100);
      }
    }
    this.problems.push(`${this.name}: could not reconnect`);
  }

  send(message: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  waitFor(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    return this.conditions.until(
      test,
      timeoutMs,
      () => `${this.name}: timed out waiting for ${what}; problems: ${this.problems.join('; ')}`,
    );
  }

  async close(): Promise<void> {
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise((r) => {
      ws.once('close', r);
      ws.close(1000);
    });
  }
}

test('gateway A killed with SIGKILL: players and spectators resync on gateway B and the game completes', async () => {
  // 1. two players and a game (through B), everyone but one spectator on A
  const sente = (await call(stack.app, 'POST', '/api/players', { name: 'alice' })).body;
  const gote = (await call(stack.app, 'POST', '/api/players', { name: 'bob' })).body;
  const game = (
    await call(stack.app, 'POST', '/api/games', { sente: sente.id, gote: gote.id }, bearer(stack.adminToken))
  ).body;
  const playerPath = (after: number | null) => `/api/games/${game.id}/ws${after === null ? '' : `?after=${after}`}`;
  const watchPath = (since: number | null) => `/api/games/${game.id}/watch${since === null ? '' : `?since=${since}`}`;
  const players = [
    new StreamClient('sente', playerPath, stack.baseUrl, bearer(sente.token)),
    new StreamClient('gote', playerPath, stack.baseUrl, bearer(gote.token)),
  ] as const;
  const spectatorA = new StreamClient('spectator on A', watchPath, stack.baseUrl);
  const spectatorB = new StreamClient('spectator on B', watchPath, stack.baseUrl);
  await Promise.all([...players, spectatorA].map((c) => c.connect(urlA)));
  await spectatorB.connect(stack.baseUrl);
  for (const s of [spectatorA, spectatorB]) await s.waitFor(() => s.snapshotSeq !== null, 'the snapshot');

  // 2. the moves, each under its idempotency key; a mover that reconnects sends its move again
  const acknowledged: Acknowledged[] = [];
  let pending: { ply: number; usi: string; key: string } | null = null;
  for (const p of players) {
    p.reconnected(() => {
      if (pending && pending.ply % 2 === players.indexOf(p)) {
        p.send({ type: 'move', usi: pending.usi, ply: pending.ply, idempotencyKey: pending.key });
      }
    });
  }
  const accepted = (client: StreamClient, ply: number) =>
    client.events.some((e) => e.type === 'MoveAccepted' && e.payload.ply === ply + 1);
  let killed = false;
  for (const [ply, usi] of MATE_GAME.entries()) {
    const mover = players[ply % 2] as StreamClient;
    pending = { ply, usi, key: `move-${ply}` };
    mover.send({ type: 'move', usi, ply, idempotencyKey: pending.key });
    if (ply === KILL_AT_PLY) {
      // 3. gateway A dies with the move in flight
      child?.kill('SIGKILL');
      killed = true;
    }
    await mover.waitFor(() => accepted(mover, ply), `the verdict on ${usi} at ply ${ply}`);
  }
  pending = null;
  expect(killed).toBe(true);

  // 4. every client has the whole stream in order, and the moves of the game
  const view = (await call(stack.app, 'GET', `/api/games/${game.id}`)).body;
  expect(view.result).toEqual({ winner: 'sente', reason: 'checkmate' });
  const clients = [...players, spectatorA, spectatorB];
  for (const c of clients) await c.waitFor(() => c.lastSeq === view.lastSeq, `seq ${view.lastSeq}`);
  for (const c of clients) {
    expect(c.problems).toEqual([]);
    const first = c.events[0]?.seq ?? 0;
    expect(c.events.map((e) => e.seq)).toEqual(Array.from({ length: view.lastSeq - first + 1 }, (_, i) => first + i));
    expect(c.moves).toEqual([...MATE_GAME]);
  }
  // players saw the stream from seq 1; the spectators from their snapshot on
  expect(players.map((p) => p.events[0]?.seq)).toEqual([1, 1]);
  // the clients of A lost their connection without a close frame (1006) and came back on B
  for (const c of [...players, spectatorA]) expect(c.closes[0]).toBe(1006);
  expect(spectatorB.closes).toEqual([]);

  // 5. acks on either gateway name the submission recorded; the audit holds
  for (const p of players)
    for (const f of p.frames)
      if (f.type === 'ack' && typeof f.usi === 'string')
        acknowledged.push({ gameId: game.id, seq: Number(f.seq), usi: f.usi });
  const report = await auditWhenSettled(stack.db, { acknowledged });
  expect(report.problems).toEqual([]);
  // the move in flight was recorded at most once: one submission per accepted move
  expect(report.submissions).toBe(MATE_GAME.length);
  await Promise.all(clients.map((c) => c.close()));
}, 90_000);
