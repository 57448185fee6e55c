/** Micro-bench of the store append: appends/s with 16 parallel clients on 64 games. */
import { gameCreated, moveSubmitted } from '@shogi/game/testing';
import { appendEvents, readStream } from '@shogi/store';
import { createTestDatabase } from '@shogi/store/testing';

const t = await createTestDatabase({ max: 16 });
const games = Array.from({ length: 64 }, (_, i) => `m${i}`);
for (const g of games) await appendEvents(t.db, g, 0, [gameCreated(g)]);
const seqs = new Map(games.map((g) => [g, 1]));
const mode = process.argv[2] ?? 'append';
let n = 0;
const end = performance.now() + 5000;
await Promise.all(
  Array.from({ length: 16 }, async (_, c) => {
    let i = c;
    while (performance.now() < end) {
      const g = games[i % games.length] as string;
      i += 16;
      if (mode === 'read') await readStream(t.db, g, 0);
      else {
        const seq = seqs.get(g) as number;
        await appendEvents(t.db, g, seq, [moveSubmitted('7g7f', 0)]);
        seqs.set(g, seq + 1);
      }
      n++;
    }
  }),
);
console.log(`${mode}: ${(n / 5).toFixed(0)}/s`);
await t.drop();
