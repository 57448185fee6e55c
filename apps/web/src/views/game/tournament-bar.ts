/**
 * A tournament game's line on the game page: a link back to its tournament and, for a player
 * before their first move where the tournament allows it, the berserk button (the Board API's
 * `POST /api/board/game/:id/berserk`: half the main time, a point more for a win of 14 plies).
 */
import { ApiFailure, api } from '../../api.js';
import { h } from '../../dom.js';
import type { GamePageState } from './state.js';
import { mySide } from './state.js';

interface Known {
  berserkable: boolean;
  berserked: boolean;
}

export interface TournamentBar {
  readonly element: HTMLElement;
  render(): void;
}

export function tournamentBar(state: GamePageState, gameId: string): TournamentBar {
  const link = h('a', { 'data-link': true, class: 'back-to-tournament' }, 'Back to the tournament');
  const button = h(
    'button',
    { type: 'button', id: 'berserk', hidden: true, title: 'Half your main time for a point more on a win' },
    'Berserk',
  );
  const said = h('span', { class: 'muted', role: 'status' });
  const element = h('p', { class: 'tournament-bar', hidden: true }, link, ' ', button, ' ', said);
  let known: Known | null = null;
  let asked = '';

  const learn = (tournamentId: string) => {
    if (asked === tournamentId) return;
    asked = tournamentId;
    const tid = encodeURIComponent(tournamentId);
    void Promise.all([
      api.get<{ berserkable: boolean }>(`/api/tournament/${tid}`),
      fetch(`/api/tournament/${tid}/games`).then((r) => (r.ok ? r.text() : '')),
    ]).then(
      ([t, lines]) => {
        const side = mySide(state);
        const line = lines
          .split('\n')
          .filter((l) => l.includes(gameId))
          .map((l) => JSON.parse(l) as { id: string; players: Record<string, { berserk: boolean }> })
          .find((g) => g.id === gameId);
        known = { berserkable: t.berserkable, berserked: side !== null && line?.players[side]?.berserk === true };
        render();
      },
      () => {},
    );
  };

  const render = () => {
    const snap = state.snap;
    const tournamentId = snap?.tournamentId;
    element.hidden = tournamentId === undefined;
    if (!snap || tournamentId === undefined) return;
    link.setAttribute('href', `/tournament/${tournamentId}`);
    learn(tournamentId);
    const side = mySide(state);
    // my first move: the side to move at the start plays ply 1
    const firstSide = snap.initialSfen.split(' ')[1] === 'w' ? 'gote' : 'sente';
    const myPliesMade = side === null ? 0 : side === firstSide ? Math.ceil(snap.ply / 2) : Math.floor(snap.ply / 2);
    button.hidden =
      side === null ||
      snap.status !== 'ongoing' ||
      myPliesMade > 0 ||
      known === null ||
      !known.berserkable ||
      known.berserked;
    if (known?.berserked && side !== null) said.textContent = 'Berserk: half your time';
  };

  button.addEventListener('click', () => {
    const token = state.me?.token;
    if (!token) return;
    button.disabled = true;
    api.post<{ ok: true }>(`/api/board/game/${encodeURIComponent(gameId)}/berserk`, {}, token).then(
      () => {
        if (known) known.berserked = true;
        render();
      },
      (err: unknown) => {
        button.disabled = false;
        said.textContent = err instanceof ApiFailure ? err.message : String(err);
      },
    );
  });

  return { element, render };
}
