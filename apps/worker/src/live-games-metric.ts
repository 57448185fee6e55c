/**
 * Games ongoing, by kind, for /metrics: two indexed counts (games_status_idx, and the clocks' partial index) at most every
 * few seconds, however often Prometheus scrapes and however many workers answer it.
 */
import { metrics } from '@shogi/metrics';
import type { Db } from '@shogi/store';

const FRESH_MS = 5_000;

export function sampleLiveGames(db: Db): () => void {
  let last: { at: number; counts: Promise<{ timed: number; untimed: number }> } | null = null;
  const count = (timedOnly: boolean) =>
    db
      .selectFrom('games')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'ongoing')
      .$if(timedOnly, (q) => q.where('deadline_at', 'is not', null))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  const read = async () => {
    const [all, timed] = await Promise.all([count(false), count(true)]);
    return { timed, untimed: all - timed };
  };
  return metrics.gamesLive.read(async () => {
    const now = Date.now();
    if (last === null || now - last.at > FRESH_MS) last = { at: now, counts: read() };
    const { timed, untimed } = await last.counts;
    return [
      [{ kind: 'timed' }, timed],
      [{ kind: 'untimed' }, untimed],
    ];
  });
}
