/** A player as the game and lobby services know them: who is acting, and the name shown. */
export interface Player {
  readonly id: string;
  readonly name: string;
}
