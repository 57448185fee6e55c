/**
 * The accepted moves of a game as an immutable chain of links, and the rules game that
 * answers questions about the position at a link.
 *
 * Folding must stay O(1) per event, so a state does not replay its moves to know its
 * position: the rules game (position, repetition keys, check flags) that has played exactly
 * a link's moves is memoized at the link, in a private slot that is no part of its value.
 * A state holds only values, so `decide` and `evolve` leave every state they are given as it
 * was: links are never changed, only followed by new ones. A rules game moves on with its
 * game's newest link: when a move is played on it (a verdict decided, an accepted move
 * folded) it leaves the link it was at for the link after the move. A state whose link has
 * no game any more (an older state, or one that a discarded decision moved past) replays its
 * moves, so the memo can cost time but never change an answer.
 */
import { Game, type MoveRejection, type Outcome, parseSfen, parseUsi, type Result, type Ruleset } from '@shogi/rules';

/**
 * A link of the line: its fields are its value, fixed when it is made. The rules game at the
 * link and the link a move last led to from it are memos in private slots, which no copy,
 * comparison or freeze of a state sees.
 */
export class MoveLine {
  readonly initialSfen: string;
  readonly ruleset: Ruleset;
  /** Moves on the line: this link's move and every one before it. */
  readonly ply: number;
  /** The move that made this link (USI); null at the start. */
  readonly usi: string | null;
  readonly previous: MoveLine | null;
  /** The rules game after exactly this link's moves, while it is here. */
  #game: Game | null = null;
  /** The link a move last led to from here, so that a move played by `decide` and then folded is played once. */
  #successor: MoveLine | null = null;

  constructor(initialSfen: string, ruleset: Ruleset, ply: number, usi: string | null, previous: MoveLine | null) {
    this.initialSfen = initialSfen;
    this.ruleset = ruleset;
    this.ply = ply;
    this.usi = usi;
    this.previous = previous;
  }

  /** The link after this one by `usi`: the one already made for that move when there is one. */
  follow(usi: string): MoveLine {
    const known = this.#successor;
    if (known?.usi != null && sameMove(known.usi, usi)) return known;
    const next = new MoveLine(this.initialSfen, this.ruleset, this.ply + 1, usi, this);
    this.#successor = next;
    return next;
  }

  /** The game kept at this link, if one is and it has played exactly this link's moves. */
  keptGame(): Game | null {
    const game = this.#game;
    return game !== null && game.ply === this.ply ? game : null;
  }

  keep(game: Game | null): void {
    this.#game = game;
  }
}

export const startLine = (initialSfen: string, ruleset: Ruleset): MoveLine =>
  new MoveLine(initialSfen, ruleset, 0, null, null);

/** The line's moves in USI, first to last. */
export function movesOfLine(line: MoveLine): string[] {
  const moves = new Array<string>(line.ply);
  for (let link: MoveLine | null = line; link !== null && link.usi !== null; link = link.previous)
    moves[link.ply - 1] = link.usi;
  return moves;
}

/** A parsed move equals the USI text (so `7g7f` and a re-formatted `7g7f` match). */
const sameMove = (a: string, b: string): boolean => a === b || parseUsi(a) === parseUsi(b);

/** Replays moves from the initial position; trusted input (accepted moves only). */
export function replay(initialSfen: string, ruleset: Ruleset, moves: readonly string[]): Game {
  const parsed = parseSfen(initialSfen);
  if (!parsed.ok) throw new Error(`recorded initial SFEN does not parse: ${parsed.error.message}`);
  const game = new Game(parsed.value, ruleset);
  for (const usi of moves) {
    const r = game.playUsi(usi);
    if (!r.ok) throw new Error(`recorded accepted move ${usi} is not legal on replay: ${r.error}`);
  }
  return game;
}

/** The memo's game at the link, or one replayed into it (O(ply)). */
function gameOf(line: MoveLine): Game {
  const kept = line.keptGame();
  if (kept !== null) return kept;
  const built = replay(line.initialSfen, line.ruleset, movesOfLine(line));
  line.keep(built);
  return built;
}

/**
 * The rules game at the link, to read (its position, its outcome): the caller must not play
 * on it. Built on first use; folding alone never builds one.
 */
export const rulesGameAt = (line: MoveLine): Game => gameOf(line);

/**
 * Plays `usi` at the link on the link's rules game and returns the outcome and the link after
 * the move. A move the rules refuse leaves everything as it was; a legal one moves the game
 * to the new link, where the `evolve` of the same move finds it.
 */
export function playAt(
  line: MoveLine,
  usi: string,
): { readonly played: Result<Outcome, MoveRejection>; readonly next: MoveLine | null; readonly game: Game } {
  const game = gameOf(line);
  const played = game.playUsi(usi);
  if (!played.ok) return { played, next: null, game };
  line.keep(null);
  const next = line.follow(usi);
  next.keep(game);
  return { played, next, game };
}

/**
 * The link after an accepted move. A rules game built at `line` is carried along (the
 * move played on it), so a process that pre-checks moves keeps paying one move per move.
 */
export function advanceLine(line: MoveLine, usi: string): MoveLine {
  const next = line.follow(usi);
  const game = line.keptGame();
  // decide played it already; a game built at `line` since then would only hold memory
  line.keep(null);
  if (next.keptGame() !== null || game === null) return next;
  const played = game.playUsi(usi);
  if (!played.ok) throw new Error(`accepted move ${usi} at ply ${next.ply} is illegal on replay: ${played.error}`);
  next.keep(game);
  return next;
}
