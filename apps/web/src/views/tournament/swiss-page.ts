/**
 * /tournament/:id of a Swiss: the terms, the countdown to the start or to the next round, join
 * and withdraw, the standings with their tie-breaks (`GET /api/swiss/{id}/results`: points,
 * Sonneborn-Berger, Buchholz cut 1, Buchholz), and every round's pairings with their results,
 * the latest first. Read every 2 s while open, as the arena's page; your game opens by itself.
 */
import { ApiFailure, api } from '../../api.js';
import { h } from '../../dom.js';
import { identity } from '../../session.js';
import { clockLabel, countdownText, type TournamentClock, type TournamentGame } from './types.js';

const POLL_MS = 2000;

interface SwissView {
  readonly id: string;
  readonly fullName: string;
  readonly createdBy: string;
  readonly clock: TournamentClock;
  readonly rated: boolean;
  readonly private: boolean;
  readonly nbPlayers: number;
  readonly isStarted: boolean;
  readonly isFinished: boolean;
  readonly secondsToStart: number;
  readonly nbRounds: number;
  readonly round: number;
  readonly nextRound?: { readonly at: string; readonly in: number };
}

interface SwissResult {
  readonly rank: number;
  readonly id: string;
  readonly username: string;
  readonly rating: number;
  readonly points: number;
  readonly title?: string;
  readonly absent?: true;
  readonly tieBreaks: {
    readonly 'sonneborn-berger': number;
    readonly 'buchholz-cut1': number;
    readonly buchholz: number;
  };
}

const sid = (id: string) => encodeURIComponent(id);

async function ndjson<T>(path: string): Promise<T[]> {
  const res = await fetch(path);
  if (!res.ok) await api.get(path);
  return (await res.text())
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

const swissApi = {
  view: (id: string) => api.get<SwissView>(`/api/swiss/${sid(id)}`),
  results: (id: string) => ndjson<SwissResult>(`/api/swiss/${sid(id)}/results`),
  games: (id: string) => ndjson<TournamentGame>(`/api/tournament/${sid(id)}/games`),
  join: (token: string, id: string, password?: string) =>
    api.post<{ ok: true }>(`/api/swiss/${sid(id)}/join`, password === undefined ? {} : { password }, token),
  withdraw: (token: string, id: string) => api.post<{ ok: true }>(`/api/swiss/${sid(id)}/withdraw`, {}, token),
};

/** Half points as players write them: 1½, ½, 2. */
const points = (n: number): string => {
  const whole = Math.floor(n);
  const half = n - whole >= 0.5 ? '½' : '';
  return whole === 0 && half !== '' ? half : `${whole}${half}`;
};

const resultText = (g: TournamentGame): string =>
  g.status !== 'finished' ? 'playing' : g.winner === 'sente' ? '1–0' : g.winner === 'gote' ? '0–1' : '½–½';

function standingRow(r: SwissResult, me: string | null): HTMLElement {
  return h(
    'tr',
    { class: r.id === me ? 'me' : null, 'data-player': r.id },
    h('td', { class: 'rank' }, String(r.rank)),
    h(
      'td',
      { class: 'name' },
      r.title ? h('span', { class: 'title' }, `${r.title} `) : null,
      h('a', { href: `/players/${r.id}`, 'data-link': true }, r.username),
      r.absent ? h('span', { class: 'paused' }, ' (withdrawn)') : null,
      h('small', {}, ` ${r.rating}`),
    ),
    h('td', { class: 'score' }, points(r.points)),
    h('td', {}, points(r.tieBreaks['sonneborn-berger'])),
    h('td', {}, points(r.tieBreaks['buchholz-cut1'])),
    h('td', {}, points(r.tieBreaks.buchholz)),
  );
}

function roundSection(round: number, games: readonly TournamentGame[]): HTMLElement {
  return h(
    'section',
    { class: 'swiss-round', 'aria-label': `Round ${round}` },
    h('h3', {}, `Round ${round}`),
    h(
      'ul',
      { class: 'pairings' },
      ...games.map((g) =>
        h(
          'li',
          {},
          h('a', { href: `/games/${g.id}`, 'data-link': true }, `${g.players.sente.name} – ${g.players.gote.name}`),
          h('span', { class: 'result' }, ` ${resultText(g)}`),
        ),
      ),
    ),
  );
}

export function swissPage(root: HTMLElement, id: string, navigate: (path: string) => void): () => void {
  const me = identity();
  const account = me?.account === true ? me : null;
  let left = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadline: { at: number; what: string } | null = null;
  const openedGames = new Set<string>();

  const title = h('h1', {}, 'Swiss');
  const terms = h('p', { class: 'tournament-terms' });
  const countdown = h('p', { class: 'countdown', role: 'timer', 'aria-live': 'off' });
  const password = h('input', {
    type: 'password',
    name: 'password',
    placeholder: 'Password',
    'aria-label': 'Password',
    hidden: true,
  });
  const joinButton = h('button', { type: 'button', class: 'primary', id: 'swiss-join', hidden: true }, 'Join');
  const withdrawButton = h('button', { type: 'button', id: 'swiss-withdraw', hidden: true }, 'Withdraw');
  const note = h('p', { class: 'note', role: 'alert' });
  const rows = h('tbody', {});
  const rounds = h('div', { class: 'swiss-rounds' });
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      h('th', { scope: 'col' }, '#'),
      h('th', { scope: 'col' }, 'Player'),
      h('th', { scope: 'col' }, 'Points'),
      h('th', { scope: 'col', title: 'Sonneborn-Berger' }, 'SB'),
      h('th', { scope: 'col', title: 'Buchholz cut 1' }, 'BH-1'),
      h('th', { scope: 'col', title: 'Buchholz' }, 'BH'),
    ),
  );
  root.replaceChildren(
    h(
      'section',
      { class: 'tournament-page swiss-page' },
      h(
        'div',
        { class: 'tournament-head' },
        title,
        terms,
        countdown,
        h('div', { class: 'tournament-actions' }, password, joinButton, withdrawButton),
        account
          ? null
          : h('p', { class: 'muted' }, 'Log in with an account to join: a guest cannot play in tournaments.'),
        note,
      ),
      h(
        'div',
        { class: 'tournament-body' },
        h(
          'section',
          { 'aria-label': 'Standings' },
          h('h2', {}, 'Standings'),
          h('table', { class: 'standings swiss-standings' }, head, rows),
        ),
        h('section', { 'aria-label': 'Rounds' }, h('h2', {}, 'Rounds'), rounds),
      ),
    ),
  );

  const tickClock = () => {
    if (deadline !== null)
      countdown.textContent = `${deadline.what} ${countdownText((deadline.at - Date.now()) / 1000)}`;
  };

  const show = (s: SwissView, results: readonly SwissResult[], games: readonly TournamentGame[]) => {
    document.title = `${s.fullName} · Shogi`;
    title.textContent = s.fullName;
    terms.textContent = [
      clockLabel(s.clock),
      s.rated ? 'rated' : 'casual',
      `Swiss, ${s.nbRounds} rounds`,
      s.private ? 'with a password' : null,
      `${s.nbPlayers} player${s.nbPlayers === 1 ? '' : 's'}`,
      `by ${s.createdBy}`,
    ]
      .filter((x) => x !== null)
      .join(' · ');
    const playing = games.some((g) => g.status !== 'finished');
    deadline = s.isFinished
      ? null
      : !s.isStarted
        ? { at: Date.now() + s.secondsToStart * 1000, what: 'Starts in' }
        : s.nextRound
          ? { at: Date.parse(s.nextRound.at), what: `Round ${s.round + 1} in` }
          : null;
    if (s.isFinished) countdown.textContent = `Finished after ${s.round} round${s.round === 1 ? '' : 's'}`;
    else if (deadline !== null) tickClock();
    else if (playing) countdown.textContent = `Round ${s.round} of ${s.nbRounds} is being played`;
    else countdown.textContent = `Round ${s.round + 1} starts when the organiser pairs it`;

    const mine = results.find((r) => r.id === me?.id);
    const inIt = mine !== undefined && mine.absent !== true;
    joinButton.hidden = account === null || s.isFinished || inIt;
    joinButton.textContent = mine === undefined ? 'Join' : 'Rejoin';
    password.hidden = joinButton.hidden || !s.private || mine !== undefined;
    withdrawButton.hidden = account === null || s.isFinished || !inIt;

    rows.replaceChildren(...results.map((r) => standingRow(r, me?.id ?? null)));
    const byRound = new Map<number, TournamentGame[]>();
    for (const g of games) byRound.set(g.round ?? 0, [...(byRound.get(g.round ?? 0) ?? []), g]);
    const numbers = [...byRound.keys()].sort((a, b) => b - a);
    rounds.replaceChildren(
      ...(numbers.length === 0
        ? [h('p', { class: 'muted' }, 'No round paired yet.')]
        : numbers.map((n) => roundSection(n, byRound.get(n) ?? []))),
    );

    // your game, once: the pairing opens the board by itself
    const myGame =
      me && games.find((g) => g.status !== 'finished' && (g.players.sente.id === me.id || g.players.gote.id === me.id));
    if (myGame && !openedGames.has(myGame.id)) {
      openedGames.add(myGame.id);
      navigate(`/games/${myGame.id}`);
    }
  };

  const poll = async () => {
    if (timer !== undefined) clearTimeout(timer);
    try {
      const [s, results, games] = await Promise.all([swissApi.view(id), swissApi.results(id), swissApi.games(id)]);
      if (!left) show(s, results, games);
    } catch (err) {
      if (!left) note.textContent = err instanceof ApiFailure ? err.message : String(err);
    }
    if (!left) timer = setTimeout(() => void poll(), POLL_MS);
  };
  const act = async (what: () => Promise<unknown>) => {
    note.textContent = '';
    try {
      await what();
    } catch (err) {
      note.textContent = err instanceof ApiFailure ? err.message : String(err);
    }
    await poll();
  };
  joinButton.addEventListener('click', () => {
    if (!account) return;
    const given = password.hidden || password.value === '' ? undefined : password.value;
    void act(() => swissApi.join(account.token, id, given));
  });
  withdrawButton.addEventListener('click', () => {
    if (account) void act(() => swissApi.withdraw(account.token, id));
  });
  const clock = setInterval(() => {
    if (deadline !== null) tickClock();
  }, 1000);
  void poll();
  return () => {
    left = true;
    if (timer !== undefined) clearTimeout(timer);
    clearInterval(clock);
  };
}
