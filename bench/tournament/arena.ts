// A synthetic arena mid-way: players rated around 1500 (a seeded normal spread), several waves
// already played and scored through the aggregate's own commands, most of the last wave's games
// over (their players waiting again) and the rest still being played.

import {
  decideTournament,
  foldTournament,
  initialTournamentState,
  ranksOf,
  standingsOf,
  type TournamentCommand,
  type TournamentState,
  type TournamentTerms,
} from '@shogi/tournament';

export const T0 = new Date('2026-01-10T12:00:00.000Z');
export const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

const TERMS: TournamentTerms = {
  name: 'Bench arena',
  format: 'arena',
  clock: { kind: 'fischer', mainSeconds: 180, incrementSeconds: 2 },
  minutes: 120,
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
  maxPlayers: 20_000,
  robinCycles: 1,
};

/** mulberry32: the same event on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function apply(state: TournamentState, command: TournamentCommand): TournamentState {
  const d = decideTournament(command, state);
  if (!d.ok) throw new Error(`${command.type} rejected: ${d.rejection.code} ${d.rejection.message}`);
  return foldTournament(d.events, state);
}

export interface ArenaOptions {
  readonly players: number;
  /** Waves played and scored before the last one. */
  readonly waves: number;
  /** The share of the last wave's games over when the wave is measured. */
  readonly overShare: number;
}

/** The arena and the moment to pair it at. */
export function generateArena({ players, waves, overShare }: ArenaOptions): { state: TournamentState; now: Date } {
  const random = seeded(players * 7919 + waves);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  let state = apply(initialTournamentState(), {
    type: 'CreateTournament',
    tournamentId: 'bench',
    createdBy: { id: 'host', name: 'host' },
    terms: TERMS,
    now: new Date(T0.getTime() - 3_600_000),
  });
  const ratings = new Map<string, number>();
  for (let i = 0; i < players; i++) {
    const id = `p${i}`;
    const rating = Math.round(Math.min(2800, Math.max(600, 1500 + 300 * normal())));
    ratings.set(id, rating);
    state = apply(state, {
      type: 'JoinTournament',
      player: { id, name: id, rating, bot: false },
      passwordHash: null,
      ratedGames: 100,
      now: new Date(T0.getTime() - 60_000 + i),
    });
  }
  state = apply(state, { type: 'StartTournament', now: T0 });
  let game = 0;
  let clock = 20;
  for (let wave = 0; wave <= waves; wave++) {
    // neighbours by rank, shuffled within blocks of ten, never the opponent just played
    const ranks = ranksOf(standingsOf(state));
    const order = [...state.players.keys()].sort((a, b) => (ranks.get(a) ?? 0) - (ranks.get(b) ?? 0));
    for (let b = 0; b < order.length; b += 10) {
      for (let i = Math.min(b + 10, order.length) - 1; i > b; i--) {
        const j = b + Math.floor(random() * (i - b + 1));
        [order[i], order[j]] = [order[j] as string, order[i] as string];
      }
    }
    const pairings = [];
    for (let i = 0; i + 1 < order.length; i += 2) {
      let [sente, gote] = [order[i] as string, order[i + 1] as string];
      if (state.lastOpponent.get(sente) === gote && i + 2 < order.length) {
        [order[i + 1], order[i + 2]] = [order[i + 2] as string, gote];
        gote = order[i + 1] as string;
      }
      if (random() < 0.5) [sente, gote] = [gote, sente];
      pairings.push({ gameId: `g${++game}`, sente, gote });
    }
    state = apply(state, { type: 'PairPlayers', pairings, now: at(clock) });
    const last = wave === waves;
    for (const p of pairings) {
      if (last && random() >= overShare) continue;
      clock += 0.05;
      const rs = ratings.get(p.sente) ?? 1500;
      const rg = ratings.get(p.gote) ?? 1500;
      const senteWins = 1 / (1 + 10 ** ((rg - rs) / 400));
      const r = random();
      const winner = r < 0.05 ? null : r < 0.05 + 0.95 * senteWins ? 'sente' : 'gote';
      state = apply(state, {
        type: 'ScoreGame',
        gameId: p.gameId,
        winner,
        plies: 40 + Math.floor(random() * 100),
        now: at(clock),
      });
    }
    clock += 240;
  }
  return { state, now: at(clock) };
}
