/**
 * PostgreSQL backend CPU per append statement under each plan_cache_mode, for batches of
 * 1, 3 and 10 games (one MoveSubmitted each), on one connection of a fresh database:
 *
 *   npx tsx --conditions=@shogi/source bench/worker/append-plans.ts
 *
 * Why: with `auto`, PostgreSQL plans the append anew on every call; createDb's statement
 * pool forces the generic plan (packages/store/src/db.ts).
 */
import { readFileSync } from 'node:fs';
import type { GameEvent } from '@shogi/game';
import { gameCreated } from '@shogi/game/testing';
import { type AppendRequest, appendEvents, appendMany, poolOf } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';

const STATEMENTS = 3000;
const GAMES = 300;
const t = await createTestDatabase({ max: 1 });
const pool = poolOf(t.db);
if (!pool) throw new Error('no statement pool');
const client = await pool.connect();
client.release();
const { rows } = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
const pid = rows[0]?.pid;
const backendCpuMs = () => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(f[11]) + Number(f[12])) * 10;
};
const seqs = new Array<number>(GAMES).fill(1);
for (let i = 0; i < GAMES; i++) await appendEvents(t.db, `g${i}`, 0, [gameCreated(`g${i}`)]);
const submitted = (ply: number): GameEvent => ({
  type: 'MoveSubmitted',
  data: { playerId: 's', color: ply % 2 ? 'gote' : 'sente', usi: '7g7f', ply, receivedAt: new Date().toISOString() },
});

console.log('plan_cache_mode      games/statement  backend CPU per statement  per append');
for (const mode of ['auto', 'force_generic_plan']) {
  await pool.query(`set plan_cache_mode = ${mode}`);
  for (const batch of [1, 3, 10]) {
    const n = STATEMENTS / batch;
    const before = backendCpuMs();
    for (let s = 0; s < n; s++) {
      const requests: AppendRequest[] = [];
      for (let k = 0; k < batch; k++) {
        const i = (s * batch + k) % GAMES;
        requests.push({ gameId: `g${i}`, expectedSeq: seqs[i] as number, events: [submitted(seqs[i] as number)] });
      }
      const results = await appendMany(t.db, requests);
      results.forEach((r, k) => {
        if (r instanceof Error) throw r;
        const i = (s * batch + k) % GAMES;
        seqs[i] = (seqs[i] as number) + 1;
      });
    }
    const perStatement = ((backendCpuMs() - before) * 1000) / n;
    console.log(
      `${mode.padEnd(20)} ${String(batch).padStart(15)}  ${perStatement.toFixed(0).padStart(21)} µs  ${(perStatement / batch).toFixed(0).padStart(7)} µs`,
    );
  }
}
await t.drop();
