/** The tournament pages' chunk, loaded when one is first opened. */
import '../../styles/tournament.css';

export { tournamentsPage } from './list.js';
export { tournamentPage } from './page.js';
