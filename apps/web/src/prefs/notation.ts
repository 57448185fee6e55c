/**
 * The move notation chosen in the settings (Japanese by default), kept in localStorage so
 * it holds across visits; the game page's move list writes moves in it.
 */
import { isNotation, type Notation } from '../shogi/notation.js';

const KEY = 'shogi.notation';

export function moveNotation(): Notation {
  try {
    const saved = localStorage.getItem(KEY);
    return isNotation(saved) ? saved : 'japanese';
  } catch {
    return 'japanese';
  }
}

export function setMoveNotation(notation: Notation): void {
  localStorage.setItem(KEY, notation);
}

/** The settings' words for each notation, with an example move. */
export const NOTATION_LABELS: Readonly<Record<Notation, string>> = {
  japanese: 'Japanese (▲７六歩, ▲５八金右)',
  western: 'Western (P-7f)',
  kif: 'KIF, with the origin (７六歩(77))',
  csa: 'CSA (+7776FU)',
  usi: 'USI (7g7f)',
};
