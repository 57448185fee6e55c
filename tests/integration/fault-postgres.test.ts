/**
 * PostgreSQL backends terminated during appends (issue 8): scripted clients play whole
 * games through the gateway while a killer repeatedly runs pg_terminate_backend on every
 * connection to the test database (the gateway's, the worker's, the audit's). A client
 * gets its 202 or a retriable 5xx with a catalog code, retries with the same idempotency
 * key, and finishes its game; every submission is recorded wholly or not at all, and once
 * the killing stops the system recovers and the audit holds.
 */
import { ERRORS, type ErrorCode, type WireEvent } from '@shogi/protocol';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { type Acknowledged, auditWhenSettled } from './audit.js';
import { MATE_GAME } from './fixtures.js';
import { ADMIN_URL, bearer, call, newGame, REDIS_CONFIG, type Stack, silentLogger, startStack } from './harness.js';

const GAMES = 6;
const KILL_ROUNDS = 30;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let stack: Stack;
let worker: { close(): Promise<void> } | null = null;
let admin: pg.Client;
let dbName: string;

beforeAll(async () => {
  stack = await startStack({ worker: false, listen: true });
  dbName = new URL(stack.config.databaseUrl).pathname.slice(1);
  const { startWorker } = await import('@shogi/worker');
  worker = await startWorker({
    databaseUrl: stack.config.databaseUrl,
    ...REDIS_CONFIG,
    logger: silentLogger(),
    concurrency: 4,
    prefix: stack.config.queuePrefix,
    channelPrefix: stack.config.channelPrefix,
    // a job whose retries all met a dead connection, or a submission whose 202 was lost
    // with its connection (so it was never enqueued), is found again within about 2 s
    sweepIntervalMs: 500,
    sweepAfterMs: 1000,
  });
  admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await worker?.close();
  await stack?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field
type Answer = any;

/** Every answer with a status of 500 or more, by code. */
const retriable = new Map<string, number>();
const acknowledged: Acknowledged[] = [];

/** An HTTP call retried while the answer is a 5xx, which must carry a catalog code. */
async function retrying(
  send: () => Promise<{ status: number; body: Answer }>,
): Promise<{ status: number; body: Answer }> {
  for (let attempt = 0; ; attempt++) {
    let res: { status: number; body: Answer };
    try {
      res = await send();
    } catch (err) {
      throw new Error(`the gateway did not answer: ${String(err)}`);
    }
    if (res.status < 500) return res;
    const code = res.body?.code as ErrorCode | undefined;
    // a lost connection is UNAVAILABLE (retry); INTERNAL would be a bug of ours
    expect(code).toBe('UNAVAILABLE');
    if (code === undefined || !(code in ERRORS) || ERRORS[code].status !== res.status)
      throw new Error(`${res.status} without a catalog code: ${JSON.stringify(res.body)}`);
    retriable.set(`${res.status} ${code}`, (retriable.get(`${res.status} ${code}`) ?? 0) + 1);
    if (attempt > 200) throw new Error('no success after 200 attempts');
    await sleep(20);
  }
}

/** One scripted client playing both sides of MATE_GAME, each move with an idempotency key. */
async function play(index: number): Promise<void> {
  const { game, players } = await (async () => {
    for (;;) {
      try {
        return await newGame(stack.app);
      } catch {
        await sleep(20); // created players or a game lost to a killed backend: start again
      }
    }
  })();
  for (const [ply, usi] of MATE_GAME.entries()) {
    const token = ply % 2 === 0 ? players.sente.token : players.gote.token;
    const headers = { ...bearer(token), 'idempotency-key': `g${index}-${ply}` };
    const res = await retrying(() => call(stack.app, 'POST', `/api/games/${game.id}/moves`, { usi, ply }, headers));
    if (res.status !== 202) throw new Error(`game ${index} ply ${ply}: ${res.status} ${JSON.stringify(res.body)}`);
    acknowledged.push({ gameId: game.id, seq: res.body.seq, usi });
    // the verdict, read from the log (the reads meet dead connections too)
    const deadline = Date.now() + 45_000;
    for (;;) {
      const { status, body } = await retrying(() =>
        call(stack.app, 'GET', `/api/games/${game.id}/events?after=${res.body.seq}`),
      );
      expect(status).toBe(200);
      const verdict = (body.events as { type: string; payload: { submittedSeq?: number } }[]).find(
        (e) => (e.type === 'MoveAccepted' || e.type === 'MoveRejected') && e.payload.submittedSeq === res.body.seq,
      );
      if (verdict) {
        expect(verdict.type, `game ${index} ply ${ply} ${usi}`).toBe('MoveAccepted');
        break;
      }
      if (Date.now() > deadline) throw new Error(`game ${index}: no verdict for ${usi} at seq ${res.body.seq}`);
      await sleep(15);
    }
  }
}

/** What the socket-playing client met: error codes, close codes, reconnections. */
const socketFaults = { errors: new Map<string, number>(), closes: new Map<number, number>(), reconnects: 0 };

/**
 * A player socket that keeps its stream across reconnections (`after=` the last seq seen)
 * and checks it has no gap and no repeat.
 */
class PlayerStream {
  readonly events: WireEvent[] = [];
  readonly problems: string[] = [];
  readonly acks: { seq: number; usi: string }[] = [];
  private ws: WebSocket | null = null;
  private readonly url: string;
  private readonly token: string;
  private wake: () => void = () => undefined;
  /** the move to send again after an UNAVAILABLE error frame or a reconnection */
  pending: { usi: string; ply: number; idempotencyKey: string } | null = null;

  constructor(gameId: string, token: string) {
    this.url = `${stack.baseUrl.replace(/^http/, 'ws')}/api/games/${gameId}/ws`;
    this.token = token;
  }

  get lastSeq(): number {
    return this.events.at(-1)?.seq ?? 0;
  }

  async connect(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.open();
        return;
      } catch (err) {
        // the upgrade's own reads may meet a dead connection: 503, then try again
        if (attempt > 200) throw err;
        await sleep(20);
      }
    }
  }

  private open(): Promise<void> {
    const ws = new WebSocket(`${this.url}?after=${this.lastSeq}`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    this.ws = ws;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; [k: string]: unknown };
      if (m.type === 'events')
        for (const e of m.events as WireEvent[]) {
          if (e.seq !== this.lastSeq + 1) this.problems.push(`seq ${e.seq} after ${this.lastSeq}`);
          if (e.seq > this.lastSeq) this.events.push(e);
        }
      if (m.type === 'ack' && typeof m.usi === 'string') this.acks.push({ seq: Number(m.seq), usi: m.usi });
      if (m.type === 'error') {
        const code = (m.error as { code: string }).code;
        socketFaults.errors.set(code, (socketFaults.errors.get(code) ?? 0) + 1);
        if (code !== 'UNAVAILABLE') this.problems.push(`error frame ${JSON.stringify(m)}`);
        else setTimeout(() => this.resend(), 20);
      }
      this.wake();
    });
    ws.on('close', (code) => {
      if (this.ws !== ws || code === 1000) return;
      socketFaults.closes.set(code, (socketFaults.closes.get(code) ?? 0) + 1);
      // a lost database connection closes with 1013 (try again later), never 1011 (our bug)
      if (code !== 1013) this.problems.push(`closed with ${code}`);
      socketFaults.reconnects++;
      this.connect().then(
        () => this.resend(),
        (err: unknown) => this.problems.push(`no reconnection: ${String(err)}`),
      );
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }

  resend(): void {
    if (this.pending && this.ws?.readyState === WebSocket.OPEN)
      this.ws.send(JSON.stringify({ type: 'move', ...this.pending }));
  }

  async waitFor(test: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 45_000;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${this.problems.join('; ')}`);
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 100);
      });
    }
  }

  close(): void {
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
  }
}

/** A game played over the two players' sockets, through the same faults. */
async function playOverSockets(): Promise<void> {
  const { game, players } = await (async () => {
    for (;;) {
      try {
        return await newGame(stack.app);
      } catch {
        await sleep(20);
      }
    }
  })();
  const sockets = [new PlayerStream(game.id, players.sente.token), new PlayerStream(game.id, players.gote.token)];
  await Promise.all(sockets.map((s) => s.connect()));
  for (const [ply, usi] of MATE_GAME.entries()) {
    const mover = sockets[ply % 2] as PlayerStream;
    mover.pending = { usi, ply, idempotencyKey: `ws-${ply}` };
    mover.resend();
    const accepted = () => mover.events.some((e) => e.type === 'MoveAccepted' && e.payload.ply === ply + 1);
    await mover.waitFor(accepted, `the verdict on ${usi} at ply ${ply}`);
    mover.pending = null;
  }
  const last = Math.max(...sockets.map((s) => s.lastSeq));
  for (const s of sockets) await s.waitFor(() => s.lastSeq === last, `seq ${last}`);
  for (const s of sockets) {
    expect(s.problems).toEqual([]);
    expect(s.events.map((e) => e.seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(s.events.filter((e) => e.type === 'MoveAccepted').map((e) => e.payload.usi)).toEqual([...MATE_GAME]);
    for (const a of s.acks) acknowledged.push({ gameId: game.id, ...a });
    s.close();
  }
}

test('backends terminated during appends: retriable errors, whole submissions, recovery, audit', async () => {
  let playing = true;
  let terminated = 0;
  let rounds = 0;
  // 1. the killer: every connection to the test database, again and again while games run
  const killer = (async () => {
    await sleep(150);
    while (playing && rounds < KILL_ROUNDS) {
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) as done from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
      terminated += rows.filter((r: { done: boolean }) => r.done).length;
      rounds++;
      await sleep(60 + ((rounds * 37) % 90));
    }
  })();
  // 2. the clients play on through it, and after it
  const clients = [...Array.from({ length: GAMES }, (_, i) => play(i)), playOverSockets()];
  const results = await Promise.allSettled(clients);
  playing = false;
  await killer;
  const failures = results
    .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    .map((r) => String(r.reason));
  expect(failures).toEqual([]);
  // 3. the audit: every acknowledged submission in the log, one verdict each, projection = log
  const report = await auditWhenSettled(stack.db, { acknowledged });
  expect(report.problems).toEqual([]);
  expect(report.accepted).toBe((GAMES + 1) * MATE_GAME.length);
  // every game ended in checkmate, seen through the gateway
  const views = await Promise.all(
    [...new Set(acknowledged.map((a) => a.gameId))].map((id) => call(stack.app, 'GET', `/api/games/${id}`)),
  );
  expect(views.map((v) => v.body.result?.reason)).toEqual(views.map(() => 'checkmate'));
  console.log(
    `fault-postgres: ${rounds} kill rounds, ${terminated} backends terminated; retriable answers: ${JSON.stringify(Object.fromEntries(retriable))}; ` +
      `socket error frames ${JSON.stringify(Object.fromEntries(socketFaults.errors))}, closes ${JSON.stringify(Object.fromEntries(socketFaults.closes))}, ${socketFaults.reconnects} reconnections`,
  );
  expect(terminated).toBeGreaterThan(0);
}, 120_000);
