/**
 * lishogi's shapes of an account and of its ongoing games, pure: `GET /api/account`, the
 * entries of `GET /api/account/playing`, and the `game` of the event stream's gameStart and
 * gameFinish, which lishogi gives in the same shape (plus `id`, which its bot clients read).
 */
import type { GameView, Side } from '@shogi/protocol';
import { sideOfSfen } from '@shogi/rules';
import type { AccountSummary, PlayerCard } from '@shogi/store';
import { bareCard, lishogiId, lishogiName, lishogiPlayer, type Speed, speedOf, VARIANT } from './shapes.js';

export interface LishogiPerf {
  readonly games: number;
  readonly rating: number;
  readonly rd: number;
  /** the rating's progress over recent games; not kept here, so 0 */
  readonly prog: number;
  readonly prov: boolean;
}

export interface LishogiAccount {
  readonly id: string;
  readonly username: string;
  /** present for a bot account only, as lishogi gives a title */
  readonly title?: 'BOT';
  readonly perfs: Readonly<Partial<Record<Speed, LishogiPerf>>>;
  /** ms since the epoch */
  readonly createdAt: number;
  readonly url: string;
}

export function lishogiAccount(account: AccountSummary, origin: string): LishogiAccount {
  return {
    id: lishogiId(account),
    username: lishogiName(account),
    ...(account.bot ? { title: 'BOT' as const } : {}),
    perfs: Object.fromEntries(
      account.ratings.map((r) => [
        r.category,
        { games: r.games, rating: r.rating, rd: r.rd, prog: 0, prov: r.provisional } satisfies LishogiPerf,
      ]),
    ),
    createdAt: account.createdAt.getTime(),
    url: `${origin}/players/${encodeURIComponent(account.id)}`,
  };
}

export interface LishogiOngoingGame {
  /** the game id again: lishogi's gameStart carries it, and its bot clients read it there */
  readonly id: string;
  readonly gameId: string;
  /** lishogi's game id with the player's secret; there is none here: the game id */
  readonly fullId: string;
  readonly color: Side;
  readonly sfen: string;
  readonly hasMoved: boolean;
  readonly isMyTurn: boolean;
  /** the latest move in USI, '' before the first */
  readonly lastMove: string;
  readonly opponent: { readonly id: string; readonly username: string; readonly rating: number };
  /** the perf's key: the speed */
  readonly perf: Speed;
  readonly rated: boolean;
  /** the player's own time left, whole seconds; null without a clock */
  readonly secondsLeft: number | null;
  readonly speed: Speed;
  readonly variant: { readonly key: string; readonly name: string };
  readonly compat: { readonly bot: true; readonly board: true };
}

/** The side of a player in a game; throws for a stranger (the callers list the player's own games). */
export function sideIn(game: Pick<GameView, 'players'>, playerId: string): Side {
  if (game.players.sente.id === playerId) return 'sente';
  if (game.players.gote.id === playerId) return 'gote';
  throw new Error(`${playerId} does not play this game`);
}

/** `opponent`: the opponent's card in the game's category, when the cards have one. */
export function lishogiOngoingGame(game: GameView, playerId: string, opponent?: PlayerCard): LishogiOngoingGame {
  const color = sideIn(game, playerId);
  const them = lishogiPlayer(opponent ?? bareCard(game.players[color === 'sente' ? 'gote' : 'sente']));
  const mine = game.clock?.[color];
  const speed = speedOf(game.timeControl);
  // the side that moves first (gote in a handicap game) has moved once a move is made
  const movesBeforeMine = sideOfSfen(game.initialSfen) === color ? 0 : 1;
  return {
    id: game.id,
    gameId: game.id,
    fullId: game.id,
    color,
    sfen: game.sfen,
    hasMoved: game.moves.length > movesBeforeMine,
    isMyTurn: game.status === 'ongoing' && game.sideToMove === color,
    lastMove: game.moves.at(-1) ?? '',
    opponent: { id: them.id, username: them.name, rating: them.rating },
    perf: speed,
    rated: game.rated,
    secondsLeft: mine === undefined ? null : Math.floor((mine.mainMs + mine.periodMs) / 1000),
    speed,
    variant: { key: VARIANT.key, name: VARIANT.name },
    compat: { bot: true, board: true },
  };
}

/**
 * lishogi lists the most urgent games first: those where it is the player's turn, then by
 * the time the player has left (no clock: last).
 */
export function byUrgency(a: LishogiOngoingGame, b: LishogiOngoingGame): number {
  if (a.isMyTurn !== b.isMyTurn) return a.isMyTurn ? -1 : 1;
  return (a.secondsLeft ?? Number.POSITIVE_INFINITY) - (b.secondsLeft ?? Number.POSITIVE_INFINITY) || 0;
}
