/**
 * Recurring tournaments from the operator's configuration (`TOURNAMENT_SCHEDULE`): hourly or
 * daily events, each made once per occurrence some minutes before its start, as lichess's
 * scheduled tournaments are. Each occurrence has an id derived from its entry and its start, so
 * every gateway (and a restart) names it alike and the stream makes it once. Pure: reading the
 * configuration, the occurrences due at a time, their ids; the director makes them.
 *
 * An entry is lichess's `POST /api/tournament` parameters (`name` required; not `startDate` or
 * `waitMinutes`, which the schedule sets) plus `every` (`hourly` | `daily`), `at` (`:MM` past
 * each hour, or `HH:MM` each day, UTC) and `aheadMinutes` (made this long before its start).
 */
import { createHash } from 'node:crypto';
import { validateTerms } from '@shogi/tournament';
import { parseTournamentParams, type TournamentParams } from './params.js';

export type Recurrence = 'hourly' | 'daily';

export interface ScheduledEvent {
  readonly every: Recurrence;
  /** Minutes after the hour (hourly) or after midnight UTC (daily). */
  readonly atMinutes: number;
  /** The occurrence is made this many minutes before its start. */
  readonly aheadMinutes: number;
  /** lichess's parameters of the tournament, as `POST /api/tournament` takes them. */
  readonly params: TournamentParams;
}

export interface Occurrence {
  readonly id: string;
  readonly event: ScheduledEvent;
  /** ms since the epoch */
  readonly startsAt: number;
}

/** Who a scheduled tournament is by: no account, so no player may terminate it. */
export const SCHEDULER = { id: 'schedule', name: 'Schedule' } as const;

const PERIOD_MS: Readonly<Record<Recurrence, number>> = { hourly: 3_600_000, daily: 86_400_000 };
const DEFAULT_AHEAD_MINUTES = 60;
const SCHEDULE_KEYS = new Set(['every', 'at', 'aheadMinutes']);

function parseAt(every: Recurrence, at: unknown): number {
  if (at === undefined) return 0;
  const m = typeof at === 'string' ? /^(\d{2})?:(\d{2})$/.exec(at) : null;
  const hours = m?.[1] === undefined ? 0 : Number(m[1]);
  const minutes = Number(m?.[2]);
  const hourly = every === 'hourly';
  if (m === null || (hourly && m[1] !== undefined) || (!hourly && m[1] === undefined) || minutes > 59 || hours > 23)
    throw new Error(`"at" must be ${hourly ? '":MM" for an hourly event' : '"HH:MM" (UTC) for a daily event'}`);
  return hours * 60 + minutes;
}

function parseEntry(entry: unknown): ScheduledEvent {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error('an entry is an object');
  const e = entry as Record<string, unknown>;
  if (e.every !== 'hourly' && e.every !== 'daily') throw new Error('"every" must be "hourly" or "daily"');
  const ahead = e.aheadMinutes ?? DEFAULT_AHEAD_MINUTES;
  if (typeof ahead !== 'number' || !Number.isInteger(ahead) || ahead < 1 || ahead > 1440)
    throw new Error('"aheadMinutes" must be a whole number from 1 to 1440');
  if (typeof e.name !== 'string' || e.name.trim() === '') throw new Error('"name" is required');
  if (e.startDate !== undefined || e.waitMinutes !== undefined)
    throw new Error('"startDate" and "waitMinutes" are the schedule\'s: give "every" and "at"');
  const params = Object.fromEntries(Object.entries(e).filter(([k]) => !SCHEDULE_KEYS.has(k))) as TournamentParams;
  const event: ScheduledEvent = { every: e.every, atMinutes: parseAt(e.every, e.at), aheadMinutes: ahead, params };
  // the terms are checked now, as the aggregate will check them, so a bad entry stops the start
  const startsAt = nextStart(event, Date.now());
  const parsed = parseTournamentParams({ ...params, startDate: startsAt }, 'check', SCHEDULER.name, new Date());
  if (!parsed.ok) throw new Error(parsed.detail);
  const bad = validateTerms(parsed.value, new Date(startsAt - 60_000));
  if (bad !== null) throw new Error(bad.message);
  return event;
}

/** The configuration: a JSON array of entries. Throws with the entry and what is wrong. */
export function parseSchedule(json: string): ScheduledEvent[] {
  let entries: unknown;
  try {
    entries = JSON.parse(json);
  } catch {
    throw new Error('TOURNAMENT_SCHEDULE is not JSON');
  }
  if (!Array.isArray(entries)) throw new Error('TOURNAMENT_SCHEDULE must be a JSON array of events');
  return entries.map((entry, i) => {
    try {
      return parseEntry(entry);
    } catch (e) {
      throw new Error(`TOURNAMENT_SCHEDULE entry ${i + 1}: ${(e as Error).message}`);
    }
  });
}

/** The event's first start after `now` (ms). */
export function nextStart(event: ScheduledEvent, now: number): number {
  const period = PERIOD_MS[event.every];
  const offset = event.atMinutes * 60_000;
  return Math.floor((now - offset) / period) * period + offset + period;
}

/** The occurrence's id: `sc` and 16 hex digits of its entry's name, recurrence and start. */
export const occurrenceId = (event: ScheduledEvent, startsAt: number): string =>
  `sc${createHash('sha256')
    .update(`${String(event.params.name)}\n${event.every}\n${new Date(startsAt).toISOString()}`)
    .digest('hex')
    .slice(0, 16)}`;

/** The occurrences to be made at `now`: each event's next start, when it is at most `aheadMinutes` away. */
export function dueOccurrences(events: readonly ScheduledEvent[], now: number): Occurrence[] {
  const out: Occurrence[] = [];
  for (const event of events) {
    const startsAt = nextStart(event, now);
    if (startsAt - now <= event.aheadMinutes * 60_000) out.push({ id: occurrenceId(event, startsAt), event, startsAt });
  }
  return out;
}
