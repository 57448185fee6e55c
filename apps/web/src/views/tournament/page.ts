/**
 * /tournament/:id: the terms, a countdown to the start or the end, join and withdraw (with the
 * password where there is one), the standings a page at a time with your row pinned (the fire
 * mark on a streak, each berserk game marked on the sheet), the games being played, and the
 * podium once finished. The tournament's live channel (`/api/tournament/:id/ws`) pushes the
 * page after every change, and the games (and your row) are read again then; while the channel
 * is down the page reads the tournament every 2 s instead. When you are paired, your game opens
 * by itself, each game once.
 */
import { ApiFailure } from '../../api.js';
import { h } from '../../dom.js';
import { reconnecting } from '../../net/reconnecting.js';
import { identity } from '../../session.js';
import { berserksBySheet } from './sheet-marks.js';
import {
  clockLabel,
  countdownText,
  type StandingPlayer,
  type TournamentGame,
  type TournamentPage,
  tournamentApi,
} from './types.js';

const POLL_MS = 2000;
const PER_PAGE = 10;
const OPENED_KEY = 'shogi.tournamentGamesOpened';

/** The games this browser opened already: a game is opened by itself once, not again on coming back. */
function opened(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(OPENED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}
function markOpened(gameId: string): void {
  const seen = opened().add(gameId);
  sessionStorage.setItem(OPENED_KEY, JSON.stringify([...seen].slice(-200)));
}

/** The format as the terms line names it. */
function formatLabel(t: TournamentPage): string {
  if (t.system === 'floodgate') return 'Floodgate rounds over CSA';
  if (t.system === 'swiss') return 'Swiss';
  if (t.system !== 'robin') return `arena, ${t.minutes} min`;
  return `round-robin${t.double ? ' (double)' : ''}${t.arranged ? ', games at agreed times' : ''}`;
}

function sheetCell(p: StandingPlayer, berserks: readonly boolean[]): HTMLElement {
  return h(
    'span',
    { class: 'sheet' },
    ...[...p.sheet.scores].map((score, i) =>
      h('span', berserks[i] ? { class: 'berserked', title: 'berserk' } : {}, score),
    ),
  );
}

function standingRow(p: StandingPlayer, me: string | null, games: readonly TournamentGame[]): HTMLElement {
  return h(
    'tr',
    { class: p.id === me ? 'me' : null, 'data-player': p.id },
    h('td', { class: 'rank' }, String(p.rank)),
    h(
      'td',
      { class: 'name' },
      p.title ? h('span', { class: 'title' }, `${p.title} `) : null,
      h('a', { href: `/players/${p.id}`, 'data-link': true }, p.name),
      p.withdraw ? h('span', { class: 'paused', title: 'paused' }, ' (paused)') : null,
      h('small', {}, ` ${p.rating}`),
    ),
    h('td', {}, sheetCell(p, berserksBySheet(p.id, games))),
    h(
      'td',
      { class: 'score' },
      p.sheet.fire
        ? h('span', { class: 'fire', title: 'on fire: wins count double', 'aria-label': 'on fire' }, '🔥')
        : null,
      String(p.score),
    ),
  );
}

export function tournamentPage(root: HTMLElement, id: string, navigate: (path: string) => void): () => void {
  const me = identity();
  const account = me?.account === true ? me : null;
  let page = 1;
  let left = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let clockTimer: ReturnType<typeof setInterval> | undefined;
  let deadline: { at: number; what: string } | null = null;

  const title = h('h1', {}, 'Tournament');
  const terms = h('p', { class: 'tournament-terms' });
  const countdown = h('p', { class: 'countdown', role: 'timer', 'aria-live': 'off' });
  const password = h('input', { type: 'password', name: 'password', placeholder: 'Password', hidden: true });
  const joinButton = h('button', { type: 'button', class: 'primary', id: 'tournament-join', hidden: true }, 'Join');
  const withdrawButton = h('button', { type: 'button', id: 'tournament-withdraw', hidden: true }, 'Withdraw');
  const note = h('p', { class: 'note', role: 'alert' });
  const podium = h('ol', { class: 'podium', hidden: true, 'aria-label': 'Podium' });
  const pinned = h('tbody', { class: 'pinned' });
  const rows = h('tbody', {});
  const pageLabel = h('span', {});
  const prev = h('button', { type: 'button', 'aria-label': 'Previous page' }, '‹');
  const next = h('button', { type: 'button', 'aria-label': 'Next page' }, '›');
  const pairings = h('ul', { class: 'pairings' });
  const guestNote = account
    ? null
    : h('p', { class: 'muted' }, 'Log in with an account to join: a guest cannot play in tournaments.');

  root.replaceChildren(
    h(
      'section',
      { class: 'tournament-page' },
      h(
        'div',
        { class: 'tournament-head' },
        title,
        terms,
        countdown,
        h('div', { class: 'tournament-actions' }, password, joinButton, withdrawButton),
        guestNote,
        note,
        podium,
      ),
      h(
        'div',
        { class: 'tournament-body' },
        h(
          'section',
          { 'aria-label': 'Standings' },
          h('h2', {}, 'Standings'),
          h('table', { class: 'standings' }, pinned, rows),
          h('div', { class: 'pager' }, prev, pageLabel, next),
        ),
        h('section', { 'aria-label': 'Games being played' }, h('h2', {}, 'Playing now'), pairings),
      ),
    ),
  );

  const say = (err: unknown) => {
    note.textContent = err instanceof ApiFailure ? err.message : String(err);
  };

  const tickClock = () => {
    if (deadline === null) countdown.textContent = '';
    else countdown.textContent = `${deadline.what} ${countdownText((deadline.at - Date.now()) / 1000)}`;
  };

  const show = (t: TournamentPage, games: readonly TournamentGame[], mine: StandingPlayer | null, inIt: boolean) => {
    document.title = `${t.fullName} · Shogi`;
    title.textContent = t.fullName;
    terms.textContent = [
      clockLabel(t.clock),
      t.rated ? 'rated' : 'casual',
      formatLabel(t),
      t.berserkable ? 'berserk allowed' : null,
      t.private ? 'with a password' : null,
      `${t.nbPlayers} player${t.nbPlayers === 1 ? '' : 's'}`,
      `by ${t.createdBy}`,
    ]
      .filter((x) => x !== null)
      .join(' · ');
    deadline = t.isFinished
      ? null
      : t.isStarted
        ? { at: Date.now() + (t.secondsToFinish ?? 0) * 1000, what: 'Ends in' }
        : { at: Date.now() + t.secondsToStart * 1000, what: 'Starts in' };
    if (t.isFinished) countdown.textContent = 'Finished';
    else tickClock();

    const playing = inIt && mine?.withdraw !== true;
    // a Floodgate tournament is entered over CSA, by logging in with its game name
    const csa = t.system === 'floodgate';
    joinButton.hidden = account === null || t.isFinished || playing || csa;
    joinButton.textContent = inIt ? 'Rejoin' : 'Join';
    password.hidden = joinButton.hidden || !t.private || inIt;
    withdrawButton.hidden = account === null || t.isFinished || !playing || csa;
    withdrawButton.textContent = t.isStarted ? 'Pause' : 'Withdraw';

    const podiumPlayers = t.podium ?? [];
    podium.hidden = podiumPlayers.length === 0;
    podium.replaceChildren(
      ...podiumPlayers.map((p) =>
        h('li', { class: `place-${p.rank}` }, h('strong', {}, p.name), h('small', {}, ` ${p.score} points`)),
      ),
    );

    const players = t.standing.players;
    rows.replaceChildren(...players.map((p) => standingRow(p, me?.id ?? null, games)));
    const onPage = players.some((p) => p.id === me?.id);
    pinned.replaceChildren(...(mine !== null && !onPage ? [standingRow(mine, me?.id ?? null, games)] : []));
    const pages = Math.max(1, Math.ceil(t.nbPlayers / PER_PAGE));
    pageLabel.textContent = ` ${page} / ${pages} `;
    prev.disabled = page <= 1;
    next.disabled = page >= pages;

    const current = games.filter((g) => g.status !== 'finished');
    pairings.replaceChildren(
      ...(current.length === 0
        ? [h('li', { class: 'muted' }, t.isFinished ? 'No more games.' : 'No game being played.')]
        : current.map((g) =>
            h(
              'li',
              {},
              h(
                'a',
                { href: `/games/${g.id}`, 'data-link': true },
                `${g.players.sente.name}${g.players.sente.berserk ? ' ⚔' : ''} – ${g.players.gote.name}${g.players.gote.berserk ? ' ⚔' : ''}`,
              ),
            ),
          )),
    );

    // your game, once: the pairing opens the board by itself
    const myGame = me && current.find((g) => g.players.sente.id === me.id || g.players.gote.id === me.id);
    if (myGame && !opened().has(myGame.id)) {
      markOpened(myGame.id);
      navigate(`/games/${myGame.id}`);
    }
  };

  // the live channel: while it is up, its pushes replace the 2-second reads
  let live = false;
  const refresh = async (pushed?: TournamentPage) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    try {
      const [t, games, results] = await Promise.all([
        pushed ?? tournamentApi.page(id, page),
        tournamentApi.games(id),
        me ? tournamentApi.results(id) : Promise.resolve([]),
      ]);
      const myResult = results.find((r) => r.id === me?.id);
      let mine = t.standing.players.find((p) => p.id === me?.id) ?? null;
      if (myResult && mine === null) {
        const myPage = await tournamentApi.page(id, Math.ceil(myResult.rank / PER_PAGE));
        mine = myPage.standing.players.find((p) => p.id === me?.id) ?? null;
      }
      if (!left) show(t, games, mine, myResult !== undefined);
    } catch (err) {
      if (!left) say(err);
    }
    if (!left && !live) timer = setTimeout(() => void refresh(), POLL_MS);
  };
  const poll = () => refresh();
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const channel = reconnecting({
    url: () => `${scheme}//${location.host}/api/tournament/${encodeURIComponent(id)}/ws?page=${page}`,
    onMessage: (data) => {
      const frame = data as { type?: string; tournament?: TournamentPage };
      if (frame.type === 'tournament' && frame.tournament?.standing.page === page) void refresh(frame.tournament);
    },
    onStatus: (connected) => {
      live = connected;
      // the channel sends the page on opening; while it is down, read every 2 s
      if (!connected && !left && timer === undefined) timer = setTimeout(() => void refresh(), POLL_MS);
    },
  });
  const turnPage = () => {
    if (!channel.send(JSON.stringify({ type: 'page', page }))) void poll();
  };

  const act = async (what: () => Promise<unknown>) => {
    note.textContent = '';
    try {
      await what();
    } catch (err) {
      say(err);
    }
    await poll();
  };
  joinButton.addEventListener('click', () => {
    if (!account) return;
    const given = password.hidden || password.value === '' ? undefined : password.value;
    void act(() => tournamentApi.join(account.token, id, given));
  });
  withdrawButton.addEventListener('click', () => {
    if (account) void act(() => tournamentApi.withdraw(account.token, id));
  });
  prev.addEventListener('click', () => {
    page = Math.max(1, page - 1);
    turnPage();
  });
  next.addEventListener('click', () => {
    page += 1;
    turnPage();
  });

  clockTimer = setInterval(() => {
    if (deadline !== null) tickClock();
  }, 1000);
  void poll();
  return () => {
    left = true;
    channel.close();
    if (timer !== undefined) clearTimeout(timer);
    if (clockTimer !== undefined) clearInterval(clockTimer);
    clockTimer = undefined;
  };
}
