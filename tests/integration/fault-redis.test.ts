/**
 * Redis killed and restarted mid-game with jobs in flight (issue 8). Two gateways and a
 * worker share a private redis-server (the shared one on 6379 is never touched); six games
 * stream moves over the players' WebSockets (sente on gateway A, gote on B) while a
 * spectator watches each one. Then:
 *
 * 1. the worker takes one job at a time, so validate jobs queue up in Redis; once at least
 *    three wait, Redis is killed with SIGKILL (verdicts being published are lost with it);
 * 2. while it is down, two more games get their first move: durable in PostgreSQL, their
 *    enqueue and pub/sub messages fail; the clients resend under the same idempotency key
 *    when told to;
 * 3. Redis comes back on the same port, either empty (production: infra/redis.conf has no
 *    persistence) or from its append-only file; without persistence the waiting jobs are
 *    gone and only the sweeper can bring them back;
 * 4. every client finishes its moves, every socket ends with the whole ordered stream, and
 *    the audit holds: every acknowledged move in the log, exactly one verdict each.
 *
 * Found by this test: player sockets never re-read after Redis came back, so a verdict
 * published while the hub was resubscribing never reached its player (the hub now calls
 * each player feed's catch-up once its channels are subscribed again).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPlayout } from '@shogi/game/testing';
import { buildApp } from '@shogi/gateway';
import type { ServerMessage, WireEvent } from '@shogi/protocol';
import { type RunningWorker, startWorker } from '@shogi/worker';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import WebSocket from 'ws';
import { type AckSeen, ackOrderProblems, type SocketLog } from './ack-order-check.js';
import { type Acknowledged, auditWhenSettled } from './audit.js';
import { Conditions } from './conditions.js';
import { bearer, call, type Stack, silentLogger, startStack } from './harness.js';
import { PrivateRedis } from './private-redis.js';
import { range, Watcher } from './spectate-client.js';

// each attempt's own, above the local Redis Clusters (infra/start-redis-cluster.sh: 7000-7005,
// the failover test 7100-7105)
const privateRedis = () => new PrivateRedis(7200, 800);
const GAMES = 6;
const MOVES = findPlayout('checkmate', 300, 60).moves.slice(0, 24);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The append-only file without an fsync per write: the test kills the process, not the machine,
 * and Redis writes each command to the file before it answers (with `appendfsync no` it never
 * postpones that write), so what it acknowledged is in the kernel's cache and survives the kill.
 * An fsync per write measures only the disk, which the full suite keeps busy (PostgreSQL
 * fsyncs too): with it this case, seconds alone, has run past its time limit there.
 */
function startRedis(redis: PrivateRedis, persistent: boolean, dataDir: string): Promise<void> {
  const persistence = persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'no', '--dir', dataDir]
    : ['--appendonly', 'no', '--dir', dataDir];
  return redis.start(['--save', '', '--maxmemory-policy', 'noeviction', ...persistence]);
}

/**
 * A player's WebSocket that keeps the game's stream (dense, in order) across reconnects
 * (`after=` the last seq seen) and resends a move the gateway could not take (an error
 * frame) under the same idempotency key.
 */
class Player {
  readonly events: WireEvent[] = [];
  readonly acks: Acknowledged[] = [];
  /** the acks where they came, for the order check (ack-order-check.ts) */
  readonly acksSeen: AckSeen[] = [];
  readonly problems: string[] = [];
  readonly errors: string[] = [];
  private readonly conditions = new Conditions();
  private ws: WebSocket | null = null;
  /** the frames of the connection open now */
  private log: SocketLog = { frames: [], closed: true };
  private closing = false;
  private pending: { usi: string; ply: number; key: string } | null = null;
  /** where the pending move was first sent; null once it was sent again */
  private firstSending: { log: SocketLog; index: number } | null = null;

  readonly name: string;
  private readonly baseUrl: string;
  private readonly gameId: string;
  private readonly token: string;

  constructor(name: string, baseUrl: string, gameId: string, token: string) {
    this.name = name;
    this.baseUrl = baseUrl;
    this.gameId = gameId;
    this.token = token;
  }

  get lastSeq(): number {
    return this.events.at(-1)?.seq ?? 0;
  }

  async connect(): Promise<void> {
    const url = `${this.baseUrl.replace(/^http/, 'ws')}/api/games/${this.gameId}/ws?after=${this.lastSeq}`;
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${this.token}` } });
    this.ws = ws;
    const log: SocketLog = { frames: [], closed: false };
    this.log = log;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      log.frames.push(m as unknown as ServerMessage);
      this.take(m);
    });
    ws.on('close', () => {
      log.closed = true;
      if (this.ws === ws && !this.closing) void this.reconnect();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
  }

  private take(m: Record<string, unknown>): void {
    if (m.type === 'events') {
      for (const e of m.events as WireEvent[]) {
        if (e.seq !== this.lastSeq + 1) this.problems.push(`${this.name}: seq ${e.seq} after ${this.lastSeq}`);
        if (e.seq > this.lastSeq) this.events.push(e);
      }
    }
    if (m.type === 'ack' && typeof m.usi === 'string') {
      this.acks.push({ gameId: this.gameId, seq: Number(m.seq), usi: m.usi });
      const index = this.log.frames.length - 1;
      const sent = this.firstSending;
      // the answer to the move's first sending, with no error frame for it in between
      const first =
        sent !== null &&
        sent.log === this.log &&
        m.ply === this.pending?.ply &&
        !this.log.frames.slice(sent.index, index).some((f) => f.type === 'error');
      this.acksSeen.push({ log: this.log, index, seq: Number(m.seq), usi: m.usi, first });
    }
    if (m.type === 'error') {
      const code = (m.error as { code: string }).code;
      this.errors.push(code);
      // the submission may or may not be recorded: the same key makes a resend safe
      const move = this.pending;
      if (move && m.ply === move.ply) setTimeout(() => move === this.pending && this.sendMove(move), 200);
    }
    this.conditions.notify();
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 0; attempt < 100 && !this.closing; attempt++) {
      try {
        await this.connect();
        if (this.pending) this.sendMove(this.pending);
        return;
      } catch {
        await sleep(100);
      }
    }
    this.problems.push(`${this.name}: could not reconnect`);
  }

  private sendMove(move: { usi: string; ply: number; key: string }): void {
    if (this.ws?.readyState === WebSocket.OPEN)
      this.ws.send(JSON.stringify({ type: 'move', usi: move.usi, ply: move.ply, idempotencyKey: move.key }));
  }

  /** Sends a move and resolves once its MoveAccepted is in this socket's stream. */
  async play(usi: string, ply: number): Promise<void> {
    this.pending = { usi, ply, key: `${this.gameId}-${ply}` };
    this.firstSending =
      this.ws?.readyState === WebSocket.OPEN ? { log: this.log, index: this.log.frames.length } : null;
    this.sendMove(this.pending);
    await this.waitForPly(ply + 1);
    this.pending = null;
  }

  waitForPly(ply: number): Promise<void> {
    return this.conditions.until(
      () => this.events.some((e) => e.type === 'MoveAccepted' && e.payload.ply === ply),
      60_000,
      () => `${this.name}: no MoveAccepted ply ${ply} (last seq ${this.lastSeq}; errors ${this.errors.join(',')})`,
    );
  }

  waitForSeq(seq: number): Promise<void> {
    return this.conditions.until(
      () => this.lastSeq >= seq,
      60_000,
      () => `${this.name}: stream at seq ${this.lastSeq}, ${seq} expected`,
    );
  }

  close(): void {
    this.closing = true;
    this.ws?.close(1000);
  }
}

interface TestGame {
  readonly id: string;
  readonly players: readonly [Player, Player];
  readonly watcher: Watcher;
}

/** One attempt's servers and clients: a timed-out attempt tears down its own, never the retry's. */
interface Rig {
  readonly redis: PrivateRedis;
  readonly dataDir: string;
  readonly stack: Stack;
  readonly second: FastifyInstance;
  readonly urlB: string;
  readonly worker: RunningWorker;
  readonly queue: Queue;
}

async function openGame(rig: Rig): Promise<TestGame> {
  const { stack } = rig;
  const sente = (await call(stack.app, 'POST', '/api/players', { name: 'alice' })).body;
  const gote = (await call(stack.app, 'POST', '/api/players', { name: 'bob' })).body;
  const game = (
    await call(stack.app, 'POST', '/api/games', { sente: sente.id, gote: gote.id }, bearer(stack.adminToken))
  ).body;
  const players = [
    new Player(`${game.id} sente`, stack.baseUrl, game.id, sente.token),
    new Player(`${game.id} gote`, rig.urlB, game.id, gote.token),
  ] as const;
  await Promise.all(players.map((p) => p.connect()));
  const watcher = await Watcher.open(rig.urlB, game.id);
  return { id: game.id, players, watcher };
}

async function playAll(game: TestGame, moves: readonly string[], progress: () => void): Promise<void> {
  for (const [ply, usi] of moves.entries()) {
    await (game.players[ply % 2] as Player).play(usi, ply);
    progress();
  }
}

async function setUp(persistent: boolean): Promise<Rig> {
  const redis = privateRedis();
  const url = redis.url;
  const dataDir = await mkdtemp(join(tmpdir(), 'shogi-redis-'));
  await startRedis(redis, persistent, dataDir);
  const stack = await startStack({ listen: true, worker: false, config: { redisUrl: url } });
  const second = await buildApp(stack.config, silentLogger());
  const urlB = await second.listen({ host: '127.0.0.1', port: 0 });
  const worker = await startWorker({
    databaseUrl: stack.config.databaseUrl,
    redisUrl: url,
    logger: silentLogger(),
    concurrency: 1,
    prefix: stack.config.queuePrefix,
    channelPrefix: stack.config.channelPrefix,
    // production sweeps every 10 s for submissions 5 s old; the same mechanism, sooner
    sweepIntervalMs: 300,
    sweepAfterMs: 1_000,
    lockDuration: 2_000,
    stalledInterval: 1_000,
  });
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  connection.on('error', () => undefined);
  const queue = new Queue('validate', {
    connection,
    prefix: stack.config.queuePrefix,
  });
  queue.on('error', () => undefined);
  return { redis, dataDir, stack, second, urlB, worker, queue };
}

async function tearDown(rig: Rig, games: readonly TestGame[]): Promise<void> {
  // the queues and the worker close through Redis: a run that failed while it was down restarts it
  if (!rig.redis.running) await startRedis(rig.redis, false, rig.dataDir).catch(() => undefined);
  for (const g of games) {
    for (const p of g.players) p.close();
    await g.watcher.close();
  }
  await rig.queue.close();
  await rig.worker.close();
  await rig.second.close();
  await rig.stack.close();
  await rig.redis.kill();
  await rm(rig.dataDir, { recursive: true, force: true });
}

const CASES = [
  { persistence: 'none (production: infra/redis.conf), the sweeper re-enqueues lost jobs', persistent: false },
  { persistence: 'an append-only file (jobs survive the restart)', persistent: true },
] as const;

for (const { persistence, persistent } of CASES) {
  // the time limit goes in the options: vitest ignores a timeout after them (a test under the
  // full suite's load outran the projects' 60 s). retry: 1 starts from a fresh setUp.
  test.sequential(`Redis killed and restarted mid-game, persistence ${persistence}: every move one verdict, every client whole`, {
    retry: 1,
    timeout: 120_000,
  }, async ({ signal }) => {
    const rig = await setUp(persistent);
    const all: TestGame[] = [];
    // past the time limit vitest moves on (to the retry): this attempt's servers and clients
    // must not live on beside it, nor in the files that run after it in this process
    let down: Promise<void> | null = null;
    const tearDownOnce = () => {
      down ??= tearDown(rig, all).catch(() => undefined);
      return down;
    };
    // the servers' errors go to their loggers: none printed raw (BullMQ prints an error no
    // listener takes to stderr); console.error is this attempt's only while it runs
    const printed: unknown[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => {
      printed.push(args[0]);
      consoleError(...args);
    };
    const restore = () => {
      console.error = consoleError;
    };
    signal.addEventListener(
      'abort',
      () => {
        restore();
        void tearDownOnce();
      },
      { once: true },
    );
    try {
      // 1. six games stream moves
      const games = await Promise.all(Array.from({ length: GAMES }, () => openGame(rig)));
      all.push(...games);
      let played = 0;
      const progress = () => {
        played++;
      };
      const running = games.map((g) => playAll(g, MOVES, progress));
      // a game that stalls fails its player's wait (60 s): said at once, not after the test's limit
      let stalled: unknown = null;
      for (const game of running) game.catch((err: unknown) => (stalled ??= err));
      while (played < GAMES * 4) {
        if (stalled !== null) throw stalled;
        await sleep(10);
      }

      // 2. with one job at a time for six games, jobs queue up: Redis dies with several waiting
      const { queue, stack } = rig;
      let waiting = await queue.getWaitingCount();
      const queuedBy = Date.now() + 30_000;
      while (waiting < 3) {
        // bounded, so a run where jobs never pile up says so instead of timing out
        if (Date.now() > queuedBy) throw new Error(`only ${waiting} jobs waiting after 30 s, 3 expected`);
        await sleep(5);
        waiting = await queue.getWaitingCount();
      }
      const playedAtKill = played;
      await rig.redis.kill();

      // 3. while Redis is down, two new games get their first move (durable in PostgreSQL)
      const late = await Promise.all([openGame(rig), openGame(rig)]);
      all.push(...late);
      const lateRunning = late.map((g) => playAll(g, MOVES.slice(0, 6), () => undefined));
      await sleep(1_500);

      // 4. Redis comes back on the same port
      await startRedis(rig.redis, persistent, rig.dataDir);
      await Promise.all([...running, ...lateRunning]);
      expect(played).toBeGreaterThan(playedAtKill);

      // 5. every socket has the whole ordered stream; the audit holds
      const acknowledged: Acknowledged[] = [];
      for (const g of all) {
        const view = (await call(stack.app, 'GET', `/api/games/${g.id}`)).body;
        for (const p of g.players) {
          await p.waitForSeq(view.lastSeq);
          expect(p.problems).toEqual([]);
          expect(p.events.map((e) => e.seq)).toEqual(range(1, view.lastSeq));
          // no frame telling a move's outcome before its ack, one verdict after each ack
          expect(ackOrderProblems(p.acksSeen)).toEqual([]);
          acknowledged.push(...p.acks);
        }
        await g.watcher.waitForSeq(view.lastSeq, 30_000);
        const seqs = g.watcher.seqs;
        expect(seqs).toEqual(range(seqs[0] ?? 1, view.lastSeq));
      }
      const report = await auditWhenSettled(stack.db, { acknowledged });
      expect(report.problems).toEqual([]);
      // idempotency keys kept resends from recording a move twice
      expect(report.submissions).toBe(GAMES * MOVES.length + 2 * 6);
      expect(report.accepted).toBe(report.submissions);
      expect(waiting).toBeGreaterThanOrEqual(3);
      if (!persistent) {
        // the jobs that waited died with Redis: the sweeper's jobs validated them
        const swept = (await queue.getCompleted(0, 10_000)).filter((j) => j.id?.includes('-sweep'));
        expect(swept.length).toBeGreaterThanOrEqual(1);
      }
      expect(printed).toEqual([]);
    } finally {
      restore();
      await tearDownOnce();
    }
  });
}
