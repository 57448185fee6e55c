/** The handicaps by the piece the giver takes off, with their Japanese names (手合割). */
import type { Handicap } from '@shogi/rules';

export const HANDICAP_NAMES: Readonly<Record<Handicap, string>> = {
  lance: 'Lance (香落ち)',
  right_lance: 'Right lance (右香落ち)',
  bishop: 'Bishop (角落ち)',
  rook: 'Rook (飛車落ち)',
  rook_lance: 'Rook and lance (飛香落ち)',
  two_piece: 'Two pieces (二枚落ち)',
  four_piece: 'Four pieces (四枚落ち)',
  six_piece: 'Six pieces (六枚落ち)',
  eight_piece: 'Eight pieces (八枚落ち)',
  ten_piece: 'Ten pieces (十枚落ち)',
};
