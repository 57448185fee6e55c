import {
  decideTournament,
  type Entrant,
  foldTournament,
  initialTournamentState,
  type TournamentCommand,
  type TournamentDecision,
  type TournamentEvent,
  type TournamentState,
  type TournamentTerms,
} from '../src/index.js';

export const T0 = new Date('2026-01-10T12:00:00.000Z');
export const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

/** An arena of an hour at 3 minutes + 2 s increment, starting at T0. */
export const ARENA_TERMS: TournamentTerms = {
  name: 'Hourly blitz',
  format: 'arena',
  clock: { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 },
  minutes: 60,
  startsAt: T0.toISOString(),
  rated: true,
  position: null,
  berserkable: true,
  streakable: true,
  hasChat: true,
  description: null,
  passwordHash: null,
  conditions: {},
  botsAllowed: false,
  maxPlayers: 300,
  robinCycles: 1,
};

export const entrant = (id: string, rating = 1500, bot = false): Entrant => ({ id, name: id, rating, bot });

export function mustAccept(d: TournamentDecision): readonly TournamentEvent[] {
  if (!d.ok) throw new Error(`rejected: ${d.rejection.code} ${d.rejection.message}`);
  return d.events;
}

/** Decides each command on the state so far and folds what it decided. */
export function run(commands: readonly TournamentCommand[], from: TournamentState = initialTournamentState()) {
  let state = from;
  const events: TournamentEvent[] = [];
  for (const c of commands) {
    const e = mustAccept(decideTournament(c, state));
    events.push(...e);
    state = foldTournament(e, state);
  }
  return { state, events };
}

export function createdWith(terms: Partial<TournamentTerms> = {}, created = new Date(T0.getTime() - 60_000)) {
  return run([
    {
      type: 'CreateTournament',
      tournamentId: 't1',
      createdBy: { id: 'host', name: 'host' },
      terms: { ...ARENA_TERMS, ...terms },
      now: created,
    },
  ]).state;
}

/** A started tournament with these players (rating 1500 unless given). */
export function startedWith(players: readonly (string | Entrant)[], terms: Partial<TournamentTerms> = {}) {
  const joins: TournamentCommand[] = players.map((p) => ({
    type: 'JoinTournament',
    player: typeof p === 'string' ? entrant(p) : p,
    passwordHash: null,
    ratedGames: 100,
    now: new Date(T0.getTime() - 30_000),
  }));
  return run([...joins, { type: 'StartTournament', now: T0 }], createdWith(terms)).state;
}
