/**
 * The board's settings, kept in localStorage: themes, coordinates, animation, sound, move
 * confirmation and premoves. The piece set stays under its own older key (session.ts), which
 * the lobby's and the statistics' boards read too. The themes are attributes on <html>, so
 * every board of every page takes them from the stylesheet.
 */
import { pieceStyle, setPieceStyle } from '../session.js';
import type { PieceStyle } from '../shogi/pieces.js';

export const BOARD_THEMES = ['kaya', 'walnut', 'slate', 'green'] as const;
export const PIECE_THEMES = ['boxwood', 'ivory', 'ebony'] as const;
export type BoardTheme = (typeof BOARD_THEMES)[number];
export type PieceTheme = (typeof PIECE_THEMES)[number];

export interface Settings {
  readonly pieceSet: PieceStyle;
  readonly boardTheme: BoardTheme;
  readonly pieceTheme: PieceTheme;
  readonly coordinates: boolean;
  readonly animation: boolean;
  readonly sound: boolean;
  /** a move made on the board waits for a second click on "Confirm" */
  readonly confirmMoves: boolean;
  /** a move entered on the opponent's turn is played once it is legal */
  readonly premoves: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  pieceSet: 'kanji',
  boardTheme: 'kaya',
  pieceTheme: 'boxwood',
  coordinates: true,
  animation: true,
  sound: true,
  confirmMoves: false,
  premoves: true,
};

const KEY = 'shogi.settings';
type Stored = Omit<Settings, 'pieceSet'>;

const oneOf = <T extends string>(list: readonly T[], value: unknown, fallback: T): T =>
  list.includes(value as T) ? (value as T) : fallback;
const flag = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);

/** What was stored, with a default for anything missing or mangled. Pure. */
export function settingsOf(raw: unknown, pieceSet: PieceStyle): Settings {
  const v = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Record<keyof Stored, unknown>>;
  const d = DEFAULT_SETTINGS;
  return {
    pieceSet,
    boardTheme: oneOf(BOARD_THEMES, v.boardTheme, d.boardTheme),
    pieceTheme: oneOf(PIECE_THEMES, v.pieceTheme, d.pieceTheme),
    coordinates: flag(v.coordinates, d.coordinates),
    animation: flag(v.animation, d.animation),
    sound: flag(v.sound, d.sound),
    confirmMoves: flag(v.confirmMoves, d.confirmMoves),
    premoves: flag(v.premoves, d.premoves),
  };
}

export function settings(): Settings {
  let raw: unknown = null;
  try {
    raw = JSON.parse(localStorage.getItem(KEY) ?? 'null');
  } catch {
    raw = null;
  }
  return settingsOf(raw, pieceStyle());
}

const listeners = new Set<(s: Settings) => void>();

/** Stores a change, applies the themes, and tells every listener (the pages redraw). */
export function updateSettings(change: Partial<Settings>): Settings {
  const next = { ...settings(), ...change };
  const { pieceSet, ...stored } = next;
  setPieceStyle(pieceSet);
  localStorage.setItem(KEY, JSON.stringify(stored));
  applyThemes(next);
  for (const listen of listeners) listen(next);
  return next;
}

/** Calls `listen` after each change; returns the way to stop. */
export function onSettingsChange(listen: (s: Settings) => void): () => void {
  listeners.add(listen);
  return () => listeners.delete(listen);
}

export function applyThemes(s: Settings = settings()): void {
  const root = document.documentElement;
  root.dataset.boardTheme = s.boardTheme;
  root.dataset.pieceTheme = s.pieceTheme;
  root.classList.toggle('no-coords', !s.coordinates);
}
