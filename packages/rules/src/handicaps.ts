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

/**
 * The rest of the handicaps that Kakinoki's KIF format names (its 手合割 list), which the
 * server does not offer (RULES.md): a record may start from one, and is then a game from
 * its own start position, not a Handicap. Left and right are uwate's, whose left is file 1
 * (香落ち takes the 1a lance): 三枚落ち is two_piece less that lance, 五枚落ち four_piece
 * less the 8a knight and 左五枚落ち less the 2a one, 左七枚落ち six_piece less the 3a
 * silver and 右七枚落ち less the 7a one. As Shogi.js (the JKF library's presets) and other
 * shogi programs' SFEN tables give them.
 */
export const RECORD_HANDICAPS = [
  'three_piece',
  'five_piece',
  'left_five_piece',
  'left_seven_piece',
  'right_seven_piece',
] as const;
export type RecordHandicap = (typeof RECORD_HANDICAPS)[number];

export const RECORD_HANDICAP_SFENS: Readonly<Record<RecordHandicap, string>> = {
  three_piece: `lnsgkgsn1/9/${SENTE_CAMP}`,
  five_piece: `2sgkgsn1/9/${SENTE_CAMP}`,
  left_five_piece: `1nsgkgs2/9/${SENTE_CAMP}`,
  left_seven_piece: `2sgkg3/9/${SENTE_CAMP}`,
  right_seven_piece: `3gkgs2/9/${SENTE_CAMP}`,
};
