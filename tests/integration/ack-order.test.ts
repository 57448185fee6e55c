/**
 * A submission's ack before anything that tells its outcome (issue 43): two gateways, the
 * players of each game on different ones, many games played at once over the player
 * sockets. Each gateway reads its queue connection's answers late (slow-link.ts), as a busy
 * gateway does: the worker has validated a move and published its verdict while the gateway
 * that recorded it still waits for its enqueue to return, so the verdict's `events` frame
 * reaches the gateway's hub before the command has answered. For every submission no
 * `verdict` frame and no `events` frame with its verdict may reach the player before its
 * ack, and every ack is followed by exactly one verdict. The second case does the same
 * while PostgreSQL backends are terminated and clients lose their connections with a move
 * in flight: they resend under their idempotency keys after an error frame and resume with
 * `after=` after a close, and none is left waiting (a replay acknowledged after its verdict
 * went by gets the verdict again after its ack).
 *
 * Runs on one Redis server by design: the slow link is a proxy in front of it.
 */
import { findPlayout } from '@shogi/game/testing';
import { buildApp } from '@shogi/gateway';
import type { ServerMessage } from '@shogi/protocol';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { type AckSeen, ackOrderProblems, type SocketLog } from './ack-order-check.js';
import { type Acknowledged, auditWhenSettled } from './audit.js';
import { ADMIN_URL, REDIS_CONFIG, type Stack, silentLogger, startStack, startTestWorker } from './harness.js';
import { openSlowLink, type SlowLink } from './slow-link.js';

/** how late a gateway reads its queue connection's answers */
const QUEUE_ANSWER_DELAY_MS = 40;
const PLAYOUT = findPlayout('checkmate', 300, 60).moves;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let stack: Stack;
let worker: { close(): Promise<void> } | null = null;
let link: SlowLink;
const gateways: FastifyInstance[] = [];
const urls: string[] = [];
let admin: pg.Client;

beforeAll(async () => {
  stack = await startStack({ worker: false, listen: true });
  const { startWorker } = await import('@shogi/worker');
  worker = await startWorker({
    databaseUrl: stack.config.databaseUrl,
    ...REDIS_CONFIG,
    logger: silentLogger(),
    concurrency: 4,
    prefix: stack.config.queuePrefix,
    channelPrefix: stack.config.channelPrefix,
    // a submission whose answer was lost with its connection before its job was queued is
    // found again soon
    sweepIntervalMs: 500,
    sweepAfterMs: 1000,
  });
  link = await openSlowLink(stack.config.redisUrl, 'shogi-gateway-queues', QUEUE_ANSWER_DELAY_MS);
  for (let i = 0; i < 2; i++) {
    const gateway = await buildApp({ ...stack.config, redisUrl: link.url }, silentLogger());
    gateways.push(gateway);
    urls.push(await gateway.listen({ host: '127.0.0.1', port: 0 }));
  }
  admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  for (const gateway of gateways) await gateway.close();
  await link?.close();
  await worker?.close();
  await stack?.close();
});

/** What the clients met on the way: error codes, closes, reconnections. */
const faults = { errors: new Map<string, number>(), closes: new Map<number, number>(), reconnects: 0 };

/**
 * A player's client: plays a move by sending it and waiting for its ack and then its verdict
 * frame; resends under the same idempotency key after an UNAVAILABLE error frame, and after a
 * close reconnects with `after=` the last seq it saw and resends.
 */
class Seat {
  readonly connections: SocketLog[] = [];
  readonly acks: AckSeen[] = [];
  lastSeq = 0;
  private ws: WebSocket | null = null;
  private wake: () => void = () => undefined;
  private readonly baseUrl: string;
  private readonly gameId: string;
  private readonly token: string;
  /** drops its connection right after sending every `dropEvery`-th move (0: never) */
  private readonly dropEvery: number;

  constructor(baseUrl: string, gameId: string, token: string, dropEvery = 0) {
    this.baseUrl = baseUrl;
    this.gameId = gameId;
    this.token = token;
    this.dropEvery = dropEvery;
  }

  async connect(): Promise<SocketLog> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.open();
      } catch (err) {
        // the upgrade's own reads may meet a dead database connection: 503, then again
        if (attempt > 200) throw err;
        await sleep(20);
      }
    }
  }

  private open(): Promise<SocketLog> {
    const url = `${this.baseUrl.replace(/^http/, 'ws')}/api/games/${this.gameId}/ws?after=${this.lastSeq}`;
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${this.token}` } });
    const connection: SocketLog = { frames: [], closed: false };
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as ServerMessage;
      connection.frames.push(m);
      if (m.type === 'events') this.lastSeq = Math.max(this.lastSeq, ...m.events.map((e) => e.seq));
      if (m.type === 'error') faults.errors.set(m.error.code, (faults.errors.get(m.error.code) ?? 0) + 1);
      this.wake();
    });
    ws.on('close', (code) => {
      connection.closed = true;
      if (code !== 1000) faults.closes.set(code, (faults.closes.get(code) ?? 0) + 1);
      this.wake();
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        this.ws = ws;
        this.connections.push(connection);
        resolve(connection);
      });
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }

  /** Plays `usi` at `ply` until its verdict frame follows its ack; throws when left waiting. */
  async play(usi: string, ply: number): Promise<void> {
    const key = `move-${ply}`;
    const deadline = Date.now() + 30_000;
    for (let attempt = 0; ; attempt++) {
      let connection = this.connections.at(-1);
      if (connection === undefined || connection.closed || this.ws?.readyState !== WebSocket.OPEN) {
        if (connection !== undefined) faults.reconnects++;
        connection = await this.connect();
      }
      const from = connection.frames.length;
      const ws = this.ws;
      ws?.send(JSON.stringify({ type: 'move', usi, ply, idempotencyKey: key }));
      // a client that loses its connection with a move in flight, a little after sending it
      if (attempt === 0 && this.dropEvery > 0 && ply % this.dropEvery === this.dropEvery - 1)
        setTimeout(() => ws?.terminate(), (ply * 7) % 30);
      for (;;) {
        const frames = connection.frames;
        const i = frames.findIndex(
          (m, at) => at >= from && (m.type === 'ack' || m.type === 'error') && m.idempotencyKey === key,
        );
        const answer = frames[i];
        if (answer?.type === 'error') {
          if (answer.error.code !== 'UNAVAILABLE') throw new Error(`${usi} at ply ${ply}: ${answer.error.code}`);
          await sleep(20);
          break;
        }
        if (answer?.type === 'ack') {
          const ack = { log: connection, index: i, seq: answer.seq, usi, first: attempt === 0 };
          if (frames.some((m, at) => at > i && m.type === 'verdict' && m.submittedSeq === answer.seq)) {
            this.acks.push(ack);
            return;
          }
          if (connection.closed) {
            this.acks.push(ack);
            break;
          }
        } else if (connection.closed) break;
        if (Date.now() > deadline) throw new Error(`left waiting: ${usi} at ply ${ply} (${key})`);
        await new Promise<void>((r) => {
          this.wake = r;
          setTimeout(r, 100);
        });
      }
    }
  }

  close(): void {
    this.ws?.close(1000);
  }
}

interface Table {
  readonly gameId: string;
  readonly seats: readonly [Seat, Seat];
}

/** `games` games, sente on one gateway and gote on the other, their seats connected. */
async function setUpGames(games: number, dropEvery = 0): Promise<Table[]> {
  return Promise.all(
    Array.from({ length: games }, async (_, index) => {
      const sente = await stack.api.createPlayer(`s${index}`);
      const gote = await stack.api.createPlayer(`g${index}`);
      const game = await stack.api.createGame({ sente: sente.id, gote: gote.id });
      // the games alternate which gateway has sente
      const seats = [
        new Seat(urls[index % 2] as string, game.id, sente.token, dropEvery),
        new Seat(urls[(index + 1) % 2] as string, game.id, gote.token, dropEvery),
      ] as const;
      await Promise.all(seats.map((seat) => seat.connect()));
      return { gameId: game.id, seats };
    }),
  );
}

/** Every game's `moves` played at once; the submissions acknowledged. */
async function playGames(tables: readonly Table[], moves: readonly string[]): Promise<Acknowledged[]> {
  const results = await Promise.allSettled(
    tables.map(async ({ seats }) => {
      for (const [ply, usi] of moves.entries()) await (seats[ply % 2] as Seat).play(usi, ply);
    }),
  );
  for (const { seats } of tables) for (const seat of seats) seat.close();
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
  expect(failures.map(String)).toEqual([]);
  return tables.flatMap(({ gameId, seats }) =>
    seats.flatMap((seat) => seat.acks.map((a) => ({ gameId, seq: a.seq, usi: a.usi }))),
  );
}

test('ack-order under load: no events or verdict frame before its ack, one verdict after each', async () => {
  const GAMES = 40;
  const moves = PLAYOUT.slice(0, 26);
  const tables = await setUpGames(GAMES);
  const acknowledged = await playGames(tables, moves);
  const seats = tables.flatMap((t) => t.seats);
  const acks = seats.flatMap((s) => s.acks);
  expect(acks.length).toBe(GAMES * moves.length);
  expect(acks.filter((a) => a.first).length).toBe(GAMES * moves.length);
  expect(ackOrderProblems(seats.flatMap((s) => s.acks))).toEqual([]);
  const report = await auditWhenSettled(stack.db, { acknowledged });
  expect(report.problems).toEqual([]);
}, 60_000);

test('ack-order under faults: PostgreSQL backends terminated, every acknowledged submission gets its verdict, in order', async () => {
  const GAMES = 8;
  const moves = PLAYOUT.slice(0, 40);
  const dbName = new URL(stack.config.databaseUrl).pathname.slice(1);
  let playing = true;
  let terminated = 0;
  const kill = async () => {
    for (let round = 0; playing && round < 40; round++) {
      await sleep(60 + ((round * 37) % 90));
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) as done from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
      terminated += rows.filter((r: { done: boolean }) => r.done).length;
    }
  };
  // and every third move of each player sent just before its connection drops
  const tables = await setUpGames(GAMES, 3);
  const killer = kill();
  let acknowledged: Acknowledged[];
  try {
    acknowledged = await playGames(tables, moves);
  } finally {
    playing = false;
    await killer;
  }
  const seats = tables.flatMap((t) => t.seats);
  expect(ackOrderProblems(seats.flatMap((s) => s.acks))).toEqual([]);
  const report = await auditWhenSettled(stack.db, { acknowledged });
  expect(report.problems).toEqual([]);
  expect(terminated).toBeGreaterThan(0);
  console.log(
    `ack-order faults: ${terminated} backends terminated; error frames ${JSON.stringify(Object.fromEntries(faults.errors))}, ` +
      `closes ${JSON.stringify(Object.fromEntries(faults.closes))}, ${faults.reconnects} reconnections`,
  );
}, 60_000);

test("a socket resumed (after=) past its player's submission awaiting its verdict still sends that verdict frame", async () => {
  // no worker yet: the submission waits for its verdict
  const idle = await startStack({ worker: false, listen: true });
  let late: { close(): Promise<void> } | null = null;
  try {
    const sente = await idle.api.createPlayer('alice');
    const gote = await idle.api.createPlayer('bob');
    const game = await idle.api.createGame({ sente: sente.id, gote: gote.id });
    // recorded over HTTP (or on a socket since dropped): the client saw up to its seq
    const submitted = await idle.api.submitMove(game.id, sente.token, { usi: '7g7f', ply: 0 });
    if (!submitted.ok) throw new Error(`move refused: ${submitted.status}`);
    const { seq } = submitted.body;
    const socket = await idle.api.playerSocket(game.id, sente.token, seq);
    await socket.waitFor((m) => m.type === 'hello');
    late = await startTestWorker(idle.config.databaseUrl, idle.config.queuePrefix);
    const verdict = await socket.waitFor((m) => m.type === 'verdict' && m.submittedSeq === seq);
    expect(verdict).toMatchObject({ type: 'verdict', submittedSeq: seq, accepted: true, usi: '7g7f' });
    await socket.close();
  } finally {
    await late?.close();
    await idle.close();
  }
});
