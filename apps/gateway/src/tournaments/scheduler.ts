/**
 * Makes the configured recurring tournaments (schedule.ts) as they come due, on the director's
 * tick, so under its lease: one gateway at a time. Each occurrence is created under its derived
 * id, so a second maker (another gateway after a lapsed lease, a restart) is refused by the
 * stream (`tournament_exists`) and makes nothing.
 */
import type { TournamentCommandHandler } from '@shogi/tournament';
import type { FastifyBaseLogger } from 'fastify';
import { parseTournamentParams } from './params.js';
import { dueOccurrences, SCHEDULER, type ScheduledEvent } from './schedule.js';

export function tournamentScheduler(
  handler: TournamentCommandHandler,
  events: readonly ScheduledEvent[],
  log: FastifyBaseLogger,
  now: () => number = Date.now,
): () => Promise<void> {
  // occurrences made (or found made) by this process, by id, until their start
  const done = new Map<string, number>();
  return async () => {
    const t = now();
    for (const [id, startsAt] of done) if (startsAt <= t) done.delete(id);
    for (const o of dueOccurrences(events, t)) {
      if (done.has(o.id)) continue;
      const parsed = parseTournamentParams(
        { ...o.event.params, startDate: o.startsAt },
        o.id,
        SCHEDULER.name,
        new Date(t),
      );
      if (!parsed.ok) {
        log.warn({ tournamentId: o.id, detail: parsed.detail }, 'tournament schedule: an entry was refused');
        done.set(o.id, o.startsAt);
        continue;
      }
      const handled = await handler.handle(o.id, {
        type: 'CreateTournament',
        tournamentId: o.id,
        createdBy: SCHEDULER,
        terms: parsed.value,
      });
      if (handled.kind === 'appended')
        log.info({ tournamentId: o.id, startsAt: new Date(o.startsAt).toISOString() }, 'tournament schedule: made');
      else if (handled.kind === 'rejected' && handled.rejection.code !== 'tournament_exists')
        log.warn(
          { tournamentId: o.id, rejection: handled.rejection },
          'tournament schedule: an occurrence was refused',
        );
      done.set(o.id, o.startsAt);
    }
  };
}
