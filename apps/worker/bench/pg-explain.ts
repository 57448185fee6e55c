/** EXPLAIN ANALYZE of the append statement after warm-up, to see where PostgreSQL spends. */
import { gameCreated, moveSubmitted } from '@shogi/game/testing';
import { appendEvents, poolOf } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';

const t = await createTestDatabase({ max: 2 });
const pool = poolOf(t.db);
if (!pool) throw new Error('no pool');
for (let i = 0; i < 50; i++) await appendEvents(t.db, `g${i}`, 0, [gameCreated(`g${i}`)]);
let seq = 1;
const c = await pool.connect();
const t0 = performance.now();
for (let k = 0; k < 200; k++) {
  await appendEvents(t.db, 'g1', seq, [moveSubmitted('7g7f', 0)]);
  seq++;
}
console.log(`sequential appendEvents: ${((performance.now() - t0) / 200).toFixed(3)} ms each`);
const t1 = performance.now();
for (let k = 0; k < 200; k++)
  await c.query({
    name: 'simple',
    text: 'insert into game_events (game_id, seq, type, payload) values ($1, $2, $3, $4::jsonb)',
    values: ['g2', k + 2, 'X', '{}'],
  });
console.log(`sequential plain insert: ${((performance.now() - t1) / 200).toFixed(3)} ms each`);
await c.query("load 'auto_explain'").catch((e: Error) => console.log('no auto_explain', e.message));
await c
  .query('set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; set client_min_messages = log')
  .catch(() => undefined);
c.on('notice', (n) => console.log(n.message));
c.release();
await t.drop();
