/**
 * The caps of POST /api/import against real PostgreSQL and Redis: records per file
 * (IMPORT_MAX_RECORDS: a file of more is refused whole, nothing written) and new records a
 * day per account and per client address (IMPORT_MAX_RECORDS_PER_DAY: 429 with Retry-After
 * past it), counted in records, not requests, and held by imports that arrive together.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sweepImportQuotas } from '../../apps/worker/src/sweeper.js';
import { bearer, type Stack, startStack } from './harness.js';

const PER_FILE = 5;
const PER_DAY = 8;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    worker: false,
    config: { importMaxRecords: PER_FILE, importMaxRecordsPerDay: PER_DAY },
  });
});
afterAll(async () => stack?.close());

let serial = 0;
/** A CSA file of `n` records no one imported before: sente opens, gote answers, sente resigns. */
function records(n: number): string {
  const batch = serial++;
  return Array.from(
    { length: n },
    (_, i) => `V2.2\nN+cap-${batch}-${i}\nN-cap-other\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n`,
  ).join('/\n');
}

async function guest(address: string) {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/players',
    payload: { name: `capped-${serial++}` },
    remoteAddress: address,
  });
  return JSON.parse(res.body) as { id: string; token: string };
}

async function importText(who: { token: string }, address: string, text: string) {
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/import',
    headers: { 'content-type': 'text/plain', ...bearer(who.token) },
    payload: text,
    remoteAddress: address,
  });
  return {
    status: res.statusCode,
    body: JSON.parse(res.body) as { code?: string; detail?: string; games?: unknown[] },
    retryAfter: res.headers['retry-after'],
  };
}

/** Records imported by this player over HTTP (`api/<id>/...`), or by anyone. */
async function written(playerId?: string): Promise<number> {
  let q = stack.db
    .withTables<{ imported_games: { game_id: string; source_file: string } }>()
    .selectFrom('imported_games')
    .select((eb) => eb.fn.countAll<string>().as('n'));
  if (playerId !== undefined) q = q.where('source_file', 'like', `api/${playerId}/%`);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

describe('records per import (IMPORT_MAX_RECORDS)', () => {
  test('a guest importing a file of more records than the cap: 413 TOO_MANY_RECORDS, nothing written', async () => {
    const me = await guest('10.1.0.1');
    const before = await written();
    const over = await importText(me, '10.1.0.1', records(PER_FILE + 1));
    expect({ status: over.status, code: over.body.code }).toEqual({ status: 413, code: 'TOO_MANY_RECORDS' });
    expect(over.body.detail).toContain(`more than ${PER_FILE} records`);
    expect(over.body.detail).toContain('split');
    // a file of far more records: the split stops past the cap, refused the same way
    const many = await importText(me, '10.1.0.1', records(2000));
    expect({ status: many.status, code: many.body.code }).toEqual({ status: 413, code: 'TOO_MANY_RECORDS' });
    expect(await written()).toBe(before);
    // the cap itself is taken
    const at = await importText(me, '10.1.0.1', records(PER_FILE));
    expect(at.status).toBe(201);
    expect(at.body.games).toHaveLength(PER_FILE);
    expect(await written(me.id)).toBe(PER_FILE);
  });
});

describe('new records a day per account and per address (IMPORT_MAX_RECORDS_PER_DAY)', () => {
  test('counted in records over several imports: past the cap 429 with Retry-After, nothing written', async () => {
    const a = await guest('10.2.0.1');
    expect((await importText(a, '10.2.0.1', records(5))).status).toBe(201);
    expect((await importText(a, '10.2.0.1', records(3))).status).toBe(201);
    expect(await written(a.id)).toBe(PER_DAY);
    const past = await importText(a, '10.2.0.1', records(1));
    expect({ status: past.status, code: past.body.code }).toEqual({ status: 429, code: 'IMPORT_QUOTA_EXCEEDED' });
    expect(past.body.detail).toContain(`0 more of ${PER_DAY}`);
    const wait = Number(past.retryAfter);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    expect(await written(a.id)).toBe(PER_DAY);
  });

  test('a file that would pass the cap is refused whole, and what is left stays importable', async () => {
    const me = await guest('10.3.0.1');
    expect((await importText(me, '10.3.0.1', records(5))).status).toBe(201);
    const whole = await importText(me, '10.3.0.1', records(4));
    expect({ status: whole.status, code: whole.body.code }).toEqual({ status: 429, code: 'IMPORT_QUOTA_EXCEEDED' });
    expect(whole.body.detail).toContain(`3 more of ${PER_DAY}`);
    expect(await written(me.id)).toBe(5);
    expect((await importText(me, '10.3.0.1', records(3))).status).toBe(201);
    expect(await written(me.id)).toBe(PER_DAY);
  });

  test('per address too: a new guest from the same address does not lift it; another address does', async () => {
    const first = await guest('10.4.0.1');
    expect((await importText(first, '10.4.0.1', records(5))).status).toBe(201);
    const second = await guest('10.4.0.1');
    expect((await importText(second, '10.4.0.1', records(3))).status).toBe(201);
    const third = await guest('10.4.0.1');
    const refused = await importText(third, '10.4.0.1', records(1));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 429, code: 'IMPORT_QUOTA_EXCEEDED' });
    expect(refused.body.detail).toContain('your network address');
    expect(await written(third.id)).toBe(0);
    // elsewhere the third guest imports; the first, whose account has 3 left, imports 3 and no more
    expect((await importText(third, '10.4.0.2', records(2))).status).toBe(201);
    expect((await importText(first, '10.4.0.3', records(3))).status).toBe(201);
    const account = await importText(first, '10.4.0.3', records(1));
    expect(account.status).toBe(429);
    expect(account.body.detail).toContain('your account');
  });

  test('imports that arrive together never pass the cap between them', async () => {
    const me = await guest('10.5.0.1');
    const answers = await Promise.all(Array.from({ length: 8 }, () => importText(me, '10.5.0.1', records(2))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429, 429, 429]);
    expect(await written(me.id)).toBe(PER_DAY);
  });

  test('a refused or invalid file and a record imported before count nothing', async () => {
    const me = await guest('10.6.0.1');
    const invalid = `${records(3)}/\nV2.2\nPI\n+\n+7777FU\n%TORYO\n`;
    expect((await importText(me, '10.6.0.1', invalid)).status).toBe(400);
    expect((await importText(me, '10.6.0.1', records(PER_FILE + 1))).status).toBe(413);
    const file = records(4);
    expect((await importText(me, '10.6.0.1', file)).status).toBe(201);
    expect((await importText(me, '10.6.0.1', file)).status).toBe(409);
    expect((await importText(me, '10.6.0.1', records(4))).status).toBe(201);
    expect(await written(me.id)).toBe(PER_DAY);
    expect((await importText(me, '10.6.0.1', records(1))).status).toBe(429);
  });
});

describe('the day passes', () => {
  test('imports older than the day count no more, and the sweep deletes them with their addresses', async () => {
    const me = await guest('10.7.0.1');
    expect((await importText(me, '10.7.0.1', records(5))).status).toBe(201);
    expect((await importText(me, '10.7.0.1', records(4))).status).toBe(429);
    // the day since those imports passes
    await sql`update import_quota_uses set at = at - interval '1 day 1 second' where owner in
      (${`p:${me.id}`}, ${'a:10.7.0.1'})`.execute(stack.db);
    const owners = await sql<{
      owner: string;
    }>`select owner from import_quota_uses where at <= now() - interval '1 day'`.execute(stack.db);
    expect(owners.rows.map((r) => r.owner).sort()).toEqual(['a:10.7.0.1', `p:${me.id}`]);
    expect(await sweepImportQuotas(stack.db, 1)).toBe(2);
    expect(await sweepImportQuotas(stack.db)).toBe(0);
    const left = await sql<{ n: string }>`select count(*) as n from import_quota_uses where owner in
      (${`p:${me.id}`}, ${'a:10.7.0.1'})`.execute(stack.db);
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect((await importText(me, '10.7.0.1', records(PER_FILE))).status).toBe(201);
  });
});
