/** What main.ts needs from each library. Setup (parsing, object creation) is never timed. */
export interface Library {
  name: string;
  /** Parses `sfen` and returns a thunk that runs perft to `depth`, counting leaves by playing them. */
  perft(sfen: string, depth: number): () => number;
  /** Ways to replay a game's USI moves, each: "parse USI + check legality + apply" per move. */
  replays: Replay[];
}

export interface Replay {
  name: string;
  /** What one move costs, in the library's calls. */
  calls: string;
  /**
   * Returns a fresh replayer for the game starting at `sfen`: calling it replays `moves`
   * and returns how many were accepted (all of them, for a game from real play).
   */
  prepare(sfen: string, moves: readonly string[]): () => number;
}
