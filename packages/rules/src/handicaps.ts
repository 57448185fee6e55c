/**
 * Standard handicap start positions (RULES.md). The stronger player (gote, uwate) removes
 * pieces and moves first. The SFENs follow the shogi GUI / USI conventions.
 */
export const HANDICAPS = [
  'lance',
  'right_lance',
  'bishop',
  'rook',
  'rook_lance',
  'two_piece',
  'four_piece',
  'six_piece',
  'eight_piece',
  'ten_piece',
] as const;
export type Handicap = (typeof HANDICAPS)[number];

const SENTE_CAMP = 'ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1';

export const HANDICAP_SFENS: Readonly<Record<Handicap, string>> = {
  lance: `lnsgkgsn1/1r5b1/${SENTE_CAMP}`,
  right_lance: `1nsgkgsnl/1r5b1/${SENTE_CAMP}`,
  bishop: `lnsgkgsnl/1r7/${SENTE_CAMP}`,
  rook: `lnsgkgsnl/7b1/${SENTE_CAMP}`,
  rook_lance: `lnsgkgsn1/7b1/${SENTE_CAMP}`,
  two_piece: `lnsgkgsnl/9/${SENTE_CAMP}`,
  four_piece: `1nsgkgsn1/9/${SENTE_CAMP}`,
  six_piece: `2sgkgs2/9/${SENTE_CAMP}`,
  eight_piece: `3gkg3/9/${SENTE_CAMP}`,
  ten_piece: `4k4/9/${SENTE_CAMP}`,
};

export const isHandicap = (name: string): name is Handicap => (HANDICAPS as readonly string[]).includes(name);
