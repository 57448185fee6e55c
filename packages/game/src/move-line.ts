/**
 * The accepted moves of a game as an immutable chain of links, and the position history
 * (@shogi/rules) that answers questions about the position at a link.
 *
 * Folding must stay O(1) per event, so a state does not replay its moves to know its
 * position: the position history (position, repetition keys, check flags) that has played exactly
 * a link's moves is memoized at the link, in a private slot that is no part of its value.
 * A state holds only values, so `decide` and `evolve` leave every state they are given as it
 * was: links are never changed, only followed by new ones. A history moves on with its
 * game's newest link: when a move is played on it (a verdict decided, an accepted move
 * folded) it leaves the link it was at for the link after the move. A state whose link has
 * no history any more (an older state, or one that a discarded decision moved past) replays its
 * moves, so the memo can cost time but never change an answer.
 */
import {
  type MoveRejection,
  type Outcome,
  PositionHistory,
  parseSfen,
  parseUsi,
  type Result,
  type Ruleset,
} from '@shogi/rules';

/**
 * A link of the line: its fields are its value, fixed when it is made. The history at the
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
  /** The position history after exactly this link's moves, while it is here. */
  #history: PositionHistory | null = null;
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

  /** The history kept at this link, if one is and it has played exactly this link's moves. */
  keptHistory(): PositionHistory | null {
    const history = this.#history;
    return history !== null && history.ply === this.ply ? history : null;
  }

  keep(history: PositionHistory | null): void {
    this.#history = history;
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
export function replay(initialSfen: string, ruleset: Ruleset, moves: readonly string[]): PositionHistory {
  const parsed = parseSfen(initialSfen);
  if (!parsed.ok) throw new Error(`recorded initial SFEN does not parse: ${parsed.error.message}`);
  const history = new PositionHistory(parsed.value, ruleset);
  for (const usi of moves) {
    const r = history.playUsi(usi);
    if (!r.ok) throw new Error(`recorded accepted move ${usi} is not legal on replay: ${r.error}`);
  }
  return history;
}

/** The memo's history at the link, or one replayed into it (O(ply)). */
function historyOf(line: MoveLine): PositionHistory {
  const kept = line.keptHistory();
  if (kept !== null) return kept;
  const built = replay(line.initialSfen, line.ruleset, movesOfLine(line));
  line.keep(built);
  return built;
}

/**
 * The position history at the link, to read (its position, its outcome): the caller must
 * not play on it. Built on first use; folding alone never builds one.
 */
export const historyAt = (line: MoveLine): PositionHistory => historyOf(line);

/**
 * Plays `usi` on the link's position history and returns the outcome and the link after the
 * move. A move the rules refuse leaves everything as it was; a legal one moves the history
 * to the new link, where the `evolve` of the same move finds it.
 */
export function playAt(
  line: MoveLine,
  usi: string,
): {
  readonly played: Result<Outcome, MoveRejection>;
  readonly next: MoveLine | null;
  readonly history: PositionHistory;
} {
  const history = historyOf(line);
  const played = history.playUsi(usi);
  if (!played.ok) return { played, next: null, history };
  line.keep(null);
  const next = line.follow(usi);
  next.keep(history);
  return { played, next, history };
}

/**
 * The link after an accepted move. A position history built at `line` is carried along (the
 * move played on it), so a process that pre-checks moves keeps paying one move per move.
 */
export function advanceLine(line: MoveLine, usi: string): MoveLine {
  const next = line.follow(usi);
  const history = line.keptHistory();
  // decide played it already; a history built at `line` since then would only hold memory
  line.keep(null);
  if (next.keptHistory() !== null || history === null) return next;
  const played = history.playUsi(usi);
  if (!played.ok) throw new Error(`accepted move ${usi} at ply ${next.ply} is illegal on replay: ${played.error}`);
  next.keep(history);
  return next;
}
