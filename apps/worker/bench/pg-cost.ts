/** PG backend CPU per statement for a few statement shapes (16 clients, 3 s each). */
import { readFileSync } from 'node:fs';
import { createTestDatabase } from '@shogi/store/testing';
import pg from 'pg';

const t = await createTestDatabase({ max: 1 });
const pool = new pg.Pool({ connectionString: t.url, max: 16 });
pool.on('error', () => undefined);
await pool.query('create table k (id text, seq int, payload jsonb, primary key (id, seq))');
const cpu = async () => {
  const { rows } = await pool.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [t.name]);
  return rows.reduce((a, r) => {
    try {
      const f = readFileSync(`/proc/${r.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return a + (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      return a;
    }
  }, 0);
};
let seq = 0;
const variants: Record<string, (c: pg.PoolClient) => Promise<unknown>> = {
  'select 1': (c) => c.query({ name: 's1', text: 'select 1' }),
  'insert (sync commit)': (c) =>
    c.query({ name: 'i1', text: 'insert into k values ($1, $2, $3)', values: ['a', ++seq, '{"x":1}'] }),
  'insert (async commit)': async (c) => {
    await c.query('set synchronous_commit = off');
    await c.query({ name: 'i1', text: 'insert into k values ($1, $2, $3)', values: ['a', ++seq, '{"x":1}'] });
    await c.query('set synchronous_commit = on');
  },
};
for (const [name, run] of Object.entries(variants)) {
  let n = 0;
  const c0 = await cpu();
  const end = performance.now() + 3000;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      const c = await pool.connect();
      while (performance.now() < end) {
        await run(c);
        n++;
      }
      c.release();
    }),
  );
  const used = (await cpu()) - c0;
  console.log(`${name}: ${(n / 3).toFixed(0)}/s, PG CPU ${((used / n) * 1e6).toFixed(0)} µs each`);
}
await pool.end();
await t.drop();
