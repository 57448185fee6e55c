/**
 * The tournament routes' shapes as the client reads them (lichess's, docs/tournaments.md), and
 * their readers: the JSON routes through api.ts, the NDJSON ones line by line.
 */
import { api } from '../../api.js';

export interface TournamentClock {
  readonly limit: number;
  readonly increment: number;
  readonly byoyomi: number;
  readonly periods: number;
}

export interface StandingPlayer {
  readonly id: string;
  readonly name: string;
  readonly title?: string;
  readonly rank: number;
  readonly rating: number;
  readonly score: number;
  readonly performance: number;
  readonly withdraw?: true;
  readonly sheet: { readonly scores: string; readonly fire?: boolean };
  readonly nb: { readonly game: number; readonly win: number; readonly draw: number; readonly loss: number };
}

export interface Tournament {
  readonly id: string;
  readonly createdBy: string;
  /** arena, robin, swiss or floodgate (a day of a CSA game name's rounds) */
  readonly system: string;
  readonly fullName: string;
  readonly minutes: number;
  readonly clock: TournamentClock;
  readonly rated: boolean;
  readonly berserkable: boolean;
  readonly streakable: boolean;
  readonly private: boolean;
  readonly nbPlayers: number;
  readonly maxPlayers: number;
  readonly startsAt: number;
  readonly finishesAt: number;
  readonly status: 10 | 20 | 30;
  readonly isStarted: boolean;
  readonly isFinished: boolean;
  readonly secondsToStart: number;
  readonly secondsToFinish?: number;
  readonly perf: { readonly key: string; readonly name: string };
  readonly double?: boolean;
  readonly arranged?: boolean;
  readonly description?: string;
  readonly winner?: { readonly id: string };
}

export interface TournamentPage extends Tournament {
  readonly standing: { readonly page: number; readonly players: readonly StandingPlayer[] };
  readonly podium?: readonly StandingPlayer[];
}

export interface TournamentLists {
  readonly created: readonly Tournament[];
  readonly started: readonly Tournament[];
  readonly finished: readonly Tournament[];
}

export interface TournamentGame {
  readonly id: string;
  readonly round?: number;
  readonly players: {
    readonly sente: { readonly id: string; readonly name: string; readonly berserk: boolean };
    readonly gote: { readonly id: string; readonly name: string; readonly berserk: boolean };
  };
  readonly status: string;
  readonly winner?: 'sente' | 'gote' | null;
  readonly plies?: number;
  readonly pairedAt: string;
}

export interface ResultLine {
  readonly rank: number;
  readonly id: string;
  readonly username: string;
  readonly score: number;
}

const tid = (id: string) => encodeURIComponent(id);

/** One JSON value a line; the NDJSON routes answer errors as JSON, which api.get reads. */
async function ndjson<T>(path: string): Promise<T[]> {
  const res = await fetch(path);
  if (!res.ok) await api.get(path);
  const text = await res.text();
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export const tournamentApi = {
  list: () => api.get<TournamentLists>('/api/tournament'),
  page: (id: string, page: number) => api.get<TournamentPage>(`/api/tournament/${tid(id)}?page=${page}`),
  games: (id: string) => ndjson<TournamentGame>(`/api/tournament/${tid(id)}/games`),
  results: (id: string) => ndjson<ResultLine>(`/api/tournament/${tid(id)}/results`),
  create: (token: string, body: Record<string, unknown>) => api.post<TournamentPage>('/api/tournament', body, token),
  join: (token: string, id: string, password?: string) =>
    api.post<{ ok: true }>(`/api/tournament/${tid(id)}/join`, password === undefined ? {} : { password }, token),
  withdraw: (token: string, id: string) => api.post<{ ok: true }>(`/api/tournament/${tid(id)}/withdraw`, {}, token),
  berserk: (token: string, gameId: string) =>
    api.post<{ ok: true }>(`/api/board/game/${encodeURIComponent(gameId)}/berserk`, {}, token),
};

/** "3+2", "10|30 ×2" (byoyomi, periods) as players write clocks. */
export function clockLabel(c: TournamentClock): string {
  const main = c.limit % 60 === 0 ? String(c.limit / 60) : `${c.limit / 60}`.replace(/^0\./, '.');
  if (c.byoyomi > 0) return `${main}|${c.byoyomi}${c.periods > 1 ? ` ×${c.periods}` : ''}`;
  return `${main}+${c.increment}`;
}

/** "1:05:09", "4:07": a countdown's seconds. */
export function countdownText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
