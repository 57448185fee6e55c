/**
 * Recurring tournaments from the configuration (TOURNAMENT_SCHEDULE): two gateways with one
 * schedule on one database and Redis; the hourly event due is made once, whichever gateway
 * directs, and a third maker (a gateway whose lease lapsed, a restart) makes nothing more; an
 * event not yet due is not made. Read through the public API.
 */
import { buildApp } from '@shogi/gateway';
import { createPgTournamentEventStore } from '@shogi/store';
import { TournamentCommandHandler } from '@shogi/tournament';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseSchedule } from '../../apps/gateway/src/tournaments/schedule.js';
import { tournamentScheduler } from '../../apps/gateway/src/tournaments/scheduler.js';
import { call, type Stack, silentLogger, startStack } from './harness.js';

const SCHEDULE = parseSchedule(
  JSON.stringify([
    // due at once: its next start is always within the hour
    { every: 'hourly', at: ':00', aheadMinutes: 60, name: 'Hourly test', clockTime: 1, clockIncrement: 0, minutes: 20 },
    // made only a minute before its start, which is more than a minute away but at 23:59 UTC
    { every: 'daily', at: '00:00', aheadMinutes: 1, name: 'Midnight test', clockTime: 1, clockByoyomi: 5, minutes: 30 },
  ]),
);

let stack: Stack;
let second: FastifyInstance | null = null;
beforeAll(async () => {
  stack = await startStack({ config: { tournamentTickMs: 100, tournamentSchedule: SCHEDULE } });
  second = await buildApp(stack.config, silentLogger());
});
afterAll(async () => {
  await second?.close();
  await stack?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const named = async (name: string) =>
  ((await call(stack.app, 'GET', '/api/tournament')).body.created as { fullName: string }[]).filter(
    (t) => t.fullName === name,
  );

describe('recurring tournaments from the configuration', () => {
  test('each occurrence is made once across gateways', async () => {
    const deadline = Date.now() + 10_000;
    while ((await named('Hourly test')).length === 0 && Date.now() < deadline) await sleep(100);
    const [made] = await named('Hourly test');
    expect(made).toMatchObject({
      createdBy: 'Schedule',
      system: 'arena',
      minutes: 20,
      clock: { limit: 60, increment: 0 },
    });
    const startsAt = (made as unknown as { startsAt: number }).startsAt;
    expect(new Date(startsAt).getUTCMinutes()).toBe(0);
    expect(startsAt - Date.now()).toBeLessThanOrEqual(3_600_000);

    // the directing gateway ticks on (every 100 ms); a maker with none of its memory runs too
    await sleep(1000);
    const fresh = tournamentScheduler(
      new TournamentCommandHandler({ store: createPgTournamentEventStore(stack.db) }),
      SCHEDULE,
      silentLogger(),
    );
    await fresh();
    await fresh();
    expect(await named('Hourly test')).toHaveLength(1);
    const minute = new Date();
    if (!(minute.getUTCHours() === 23 && minute.getUTCMinutes() === 59))
      expect(await named('Midnight test')).toHaveLength(0);
  }, 30_000);
});
