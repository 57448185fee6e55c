/**
 * The client's router: /, /games/:id, /stats, /players/:id, /import, /analysis[/:id],
 * /settings, /tournaments, /tournament/:id, /mod (the moderators' queue), and a not-found page for anything else. Links marked `data-link` are followed
 * without a reload; the gateway answers any of these paths with index.html.
 */
import './styles.css';
import './styles/pieces.css';
import { markPieceStyle } from './session.js';
import { gamePage } from './views/game.js';
import { importPage } from './views/import.js';
import { lobbyPage } from './views/lobby.js';
import { notFoundPage } from './views/not-found.js';
import { playerPage } from './views/player.js';
import { settingsPage } from './views/settings.js';
import { applyThemes } from './views/settings-store.js';
import { statsPage } from './views/stats.js';

applyThemes();
const main = document.getElementById('main') as HTMLElement;
let leave: () => void = () => {};
// the path and query routed last: a fragment followed within the page (the skip link's #main)
// fires popstate too, and must not build the page again under the focus it just moved
let routed = '';

const TITLES: Readonly<Record<string, string>> = {
  '/': 'Shogi',
  '/stats': 'Statistics · Shogi',
  '/import': 'Import · Shogi',
  '/settings': 'Settings · Shogi',
  '/tournaments': 'Tournaments · Shogi',
  '/mod': 'Moderation · Shogi',
};

function route(): void {
  routed = location.pathname + location.search;
  leave();
  markPieceStyle();
  const path = location.pathname;
  const game = /^\/games\/([A-Za-z0-9_-]+)$/.exec(path);
  const player = /^\/players\/([A-Za-z0-9_-]+)$/.exec(path);
  const analysis = /^\/analysis(?:\/([A-Za-z0-9_-]+))?$/.exec(path);
  const tournament = /^\/tournament\/([A-Za-z0-9]+)$/.exec(path);
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a'))
    a.toggleAttribute('aria-current', a.pathname === path || (a.pathname === '/' && game !== null));
  // set before the page is built: a page that knows its name sooner retitles itself
  if (game) document.title = 'Game · Shogi';
  else if (player) document.title = 'Player · Shogi';
  else if (tournament) document.title = 'Tournament · Shogi';
  else if (!analysis) document.title = TITLES[path] ?? 'Page not found · Shogi';
  if (game?.[1]) leave = gamePage(main, game[1], navigate);
  else if (player?.[1]) leave = playerPage(main, player[1]);
  else if (analysis) leave = analysisBoard(analysis[1] ?? null);
  else if (tournament?.[1]) leave = tournamentPages(tournament[1]);
  else if (path === '/tournaments') leave = tournamentPages(null);
  else if (path === '/mod') leave = modPage();
  else if (path === '/stats') leave = statsPage(main);
  else if (path === '/import') leave = importPage(main, navigate);
  else if (path === '/settings') leave = settingsPage(main);
  else if (path === '/') leave = lobbyPage(main, navigate);
  else leave = notFoundPage(main, path);
}

/** The analysis board is a chunk of its own, loaded when first opened. */
function analysisBoard(gameId: string | null): () => void {
  let left = false;
  let stop = () => {};
  document.title = 'Analysis board · Shogi';
  void import('./views/analysis.js').then((m) => {
    if (!left) stop = m.analysisPage(main, gameId);
  });
  return () => {
    left = true;
    stop();
  };
}

/** The moderators' page is a chunk of its own: few ever open it. */
function modPage(): () => void {
  let left = false;
  let stop = () => {};
  void import('./views/mod.js').then((m) => {
    if (!left) stop = m.modPage(main);
  });
  return () => {
    left = true;
    stop();
  };
}

/** The tournament pages are a chunk of their own: the list and form, or one tournament. */
function tournamentPages(id: string | null): () => void {
  let left = false;
  let stop = () => {};
  void import('./views/tournament/index.js').then((m) => {
    if (!left) stop = id === null ? m.tournamentsPage(main, navigate) : m.tournamentPage(main, id, navigate);
  });
  return () => {
    left = true;
    stop();
  };
}

export function navigate(path: string): void {
  history.pushState(null, '', path);
  route();
  main.focus();
}

document.addEventListener('click', (event) => {
  const a = (event.target as Element).closest<HTMLAnchorElement>('a[data-link]');
  if (!a || event.ctrlKey || event.metaKey || event.shiftKey || a.origin !== location.origin) return;
  event.preventDefault();
  navigate(a.pathname);
});
window.addEventListener('popstate', () => {
  if (location.pathname + location.search !== routed) route();
});
route();
