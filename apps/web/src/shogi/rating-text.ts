/** A rating as lishogi writes one beside a name: "1500", or "1500?" while it is provisional. */
export interface ShownRating {
  readonly rating: number;
  readonly provisional: boolean;
}

export const ratingText = (r: ShownRating): string => `${r.rating}${r.provisional ? '?' : ''}`;
