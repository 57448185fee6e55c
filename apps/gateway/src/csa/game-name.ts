/**
 * The password of a CSA login, as Floodgate reads it: a game name, then optionally `,` and a
 * trip. A game name is `<id>-<total seconds>-<seconds>` where the seconds are byoyomi, or a
 * Fischer increment when they end in `F`; `-B` or `-W` after it asks for sente or gote.
 * Names that begin `floodgate-` are paired at scheduled rounds, the others at once. An id
 * that begins with one of shogi-server's handicap prefixes (`hclance_`, `hc2p_`...) names a
 * handicap game; any other `hc…_` prefix is no game name.
 */
import { byoyomi, fischer, type TimeControl, validateTimeControl } from '@shogi/game';
import type { Side } from '@shogi/protocol';
import type { Handicap } from '@shogi/rules';

export interface CsaGameName {
  /** the name players are paired by: the game name without its side */
  readonly name: string;
  readonly timeControl: TimeControl;
  /** the side asked for; null: either */
  readonly side: Side | null;
  /** paired at the scheduled rounds of its name, not at once */
  readonly floodgate: boolean;
  /** the handicap its prefix names; null: an even game */
  readonly handicap: Handicap | null;
}

export interface LoginPassword {
  /** null in the x1 mode, which picks its game with %%GAME */
  readonly game: CsaGameName | null;
  /** a personal API token of the account logging in; null: a guest */
  readonly trip: string | null;
}

const GAME_NAME = /^([A-Za-z0-9_@.-]+?)-(\d{1,5})-(\d{1,4})(F?)(?:-([BW]))?$/i;
/**
 * shogi-server's handicap prefixes (its Login.handicapped_game_name?), as this server's
 * handicaps. shogi-server has none for the right lance, so neither has the CSA front end.
 */
export const HANDICAP_PREFIXES: Readonly<Record<string, Handicap>> = {
  hclance: 'lance',
  hcbishop: 'bishop',
  hcrook: 'rook',
  hcrooklance: 'rook_lance',
  hc2p: 'two_piece',
  hc4p: 'four_piece',
  hc6p: 'six_piece',
  hc8p: 'eight_piece',
  hc10p: 'ten_piece',
};
/** what reads as a handicap prefix: `hc`, letters and digits, `_` */
const HANDICAP_PREFIX = /^(hc[a-z0-9]*)_/;

/**
 * The handicap an id's prefix names: null for an even game (no prefix), undefined for a
 * prefix that names none.
 */
export function handicapOf(id: string): Handicap | null | undefined {
  const m = HANDICAP_PREFIX.exec(id);
  if (m === null) return null;
  return Object.hasOwn(HANDICAP_PREFIXES, m[1] as string) ? HANDICAP_PREFIXES[m[1] as string] : undefined;
}

/** a trip is a token: printable ASCII without spaces, as a bearer token */
const TRIP = /^[\x21-\x7e]{1,200}$/;

/** `floodgate-300-10F-B`: the game name, or null when it is not one (or its clock is not a sensible one). */
export function parseGameName(text: string): CsaGameName | null {
  const m = GAME_NAME.exec(text);
  if (m === null) return null;
  const [, id, total, seconds, f, side] = m as unknown as [string, string, string, string, string, string | undefined];
  const [main, per] = [Number(total), Number(seconds)];
  // `-0` without F is sudden death, which CSA writes as Byoyomi:0
  const timeControl = f !== '' || per === 0 ? fischer(main, per) : byoyomi(main, per);
  if (!validateTimeControl(timeControl).ok) return null;
  const handicap = handicapOf(id);
  if (handicap === undefined) return null;
  const name = `${id}-${total}-${seconds}${f}`;
  return {
    name,
    timeControl,
    side: side === undefined ? null : side.toUpperCase() === 'B' ? 'sente' : 'gote',
    floodgate: id.toLowerCase().startsWith('floodgate'),
    handicap,
  };
}

/** The login's password, or null when the plain mode's password names no game (LOGIN:incorrect). */
export function parsePassword(password: string, x1: boolean): LoginPassword | null {
  const comma = password.indexOf(',');
  const trip = comma < 0 ? null : password.slice(comma + 1);
  if (trip !== null && !TRIP.test(trip)) return null;
  if (x1) return { game: null, trip };
  const game = parseGameName(comma < 0 ? password : password.slice(0, comma));
  return game === null ? null : { game, trip };
}
