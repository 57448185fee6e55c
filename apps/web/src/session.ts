/**
 * Who this browser plays as: a guest player created on first play, its bearer token kept in
 * localStorage (the server stores only its hash, and shows it once). Also the display
 * preferences.
 */
import { ApiFailure, api } from './api.js';
import type { PieceStyle } from './shogi/pieces.js';

export interface Identity {
  readonly id: string;
  readonly name: string;
  readonly token: string;
  /** a logged-in account's session (else a guest) */
  readonly account?: boolean;
}

const KEY = 'shogi.identity';
const STYLE_KEY = 'shogi.pieceStyle';

export function identity(): Identity | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (raw === null) return null;
    const v = JSON.parse(raw) as Partial<Identity>;
    if (typeof v.id !== 'string' || typeof v.name !== 'string' || typeof v.token !== 'string') return null;
    return { id: v.id, name: v.name, token: v.token, ...(v.account === true ? { account: true } : {}) };
  } catch {
    return null;
  }
}

export function saveIdentity(who: Identity): void {
  localStorage.setItem(KEY, JSON.stringify(who));
}

export function forgetIdentity(): void {
  localStorage.removeItem(KEY);
}

/** The guest this browser plays as, created (named `name`, or Guest-NNNN) when there is none. */
export async function ensureIdentity(name?: string): Promise<Identity> {
  const known = identity();
  if (known) return known;
  const chosen = name?.trim();
  const created = chosen ? await api.createPlayer(chosen) : await createNamedGuest();
  const who = { id: created.id, name: created.name, token: created.token };
  saveIdentity(who);
  return who;
}

const guestName = () => `Guest-${Math.floor(1000 + Math.random() * 9000)}`;

/** A guest with a made-up name; another one when an account holds the first (NAME_TAKEN). */
async function createNamedGuest() {
  try {
    return await api.createPlayer(guestName());
  } catch (err) {
    if (!(err instanceof ApiFailure && err.body.code === 'NAME_TAKEN')) throw err;
    return api.createPlayer(guestName());
  }
}

export function pieceStyle(): PieceStyle {
  return localStorage.getItem(STYLE_KEY) === 'latin' ? 'latin' : 'kanji';
}

export function setPieceStyle(style: PieceStyle): void {
  localStorage.setItem(STYLE_KEY, style);
  markPieceStyle();
}

/** Puts the piece style on the page's root (`data-pieces`), where the stylesheet marks gote's letters. */
export function markPieceStyle(): void {
  document.documentElement.dataset.pieces = pieceStyle();
}

/**
 * Runs `act` as this browser's player; a guest token the server no longer knows (its
 * database was reset) is forgotten and a new guest made, once.
 */
export async function withIdentity<T>(act: (who: Identity) => Promise<T>, name?: string): Promise<T> {
  const who = await ensureIdentity(name);
  try {
    return await act(who);
  } catch (err) {
    if (!(err instanceof ApiFailure && err.status === 401) || who.account) throw err;
    forgetIdentity();
    return act(await ensureIdentity(name));
  }
}
