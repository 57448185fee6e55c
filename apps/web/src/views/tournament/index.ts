/** The tournament pages' chunk, loaded when one is first opened. */
import '../../styles/tournament.css';
import { api } from '../../api.js';
import { tournamentPage as arenaPage } from './page.js';
import { swissPage } from './swiss-page.js';

export { tournamentsPage } from './list.js';

/** /tournament/:id: a Swiss's page or the arena's and round-robin's, by the tournament's `system`. */
export function tournamentPage(root: HTMLElement, id: string, navigate: (path: string) => void): () => void {
  let left = false;
  let stop = () => {};
  const open = (swiss: boolean) => {
    if (!left) stop = swiss ? swissPage(root, id, navigate) : arenaPage(root, id, navigate);
  };
  api.get<{ system?: string }>(`/api/tournament/${encodeURIComponent(id)}`).then(
    (t) => open(t.system === 'swiss'),
    () => open(false),
  );
  return () => {
    left = true;
    stop();
  };
}
