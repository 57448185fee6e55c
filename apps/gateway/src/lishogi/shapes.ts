/**
 * lishogi's shapes of what both its APIs show, pure: a player, the speed and perf of a time
 * control, the variant, a challenge's time control, a challenge. Names and values are
 * lishogi's (its API reference, lishogi-org/api's doc/specs/lishogi-api.yaml, and its
 * challenge JsonView), so that its clients read them unchanged. Every game here is standard
 * shogi; a handicap or a custom position is its initial SFEN.
 */
import type { ChallengeView, TimeControl } from '@shogi/protocol';
import { categoryOf, NEW_PLAYER, type RatingCategory } from '@shogi/ratings';
import { HANDICAP_SFENS, type Handicap } from '@shogi/rules';
import type { PlayerCard } from '@shogi/store';

/** A player as the game and lobby views name one. */
interface PlayerRef {
  readonly id: string;
  readonly name: string;
}

export const VARIANT = { key: 'standard', name: 'Standard', short: 'Std' } as const;

/**
 * lishogi's speeds are this server's rating categories (packages/ratings' categoryOf, with
 * bounds tuned for shogi): lishogi's `ultraBullet` is never given. An unlimited game is
 * `correspondence`, as lishogi has it for every game without a clock.
 */
export type Speed = RatingCategory;
export const speedOf = (timeControl: TimeControl): Speed => categoryOf(timeControl) ?? 'correspondence';

const PERF_NAMES: Readonly<Record<Speed, string>> = {
  bullet: 'Bullet',
  blitz: 'Blitz',
  rapid: 'Rapid',
  classical: 'Classical',
  correspondence: 'Correspondence',
};
export const perfOf = (timeControl: TimeControl): { readonly name: string } => ({
  name: PERF_NAMES[speedOf(timeControl)],
});

/** A player as lishogi shows one in a challenge or a game (its `GameEventPlayer`). */
export interface LishogiPlayer {
  readonly id: string;
  readonly name: string;
  readonly title: 'BOT' | null;
  readonly rating: number;
  readonly provisional: boolean;
}

/**
 * lishogi's user id is the lower-cased username, and its clients compare a game's players
 * with their account by it or by the name: both come from the username here too, so a game's
 * players match `GET /api/account`. A guest has no username: its player id and name.
 */
export const lishogiId = (p: { readonly id: string; readonly username: string | null }): string =>
  p.username?.toLowerCase() ?? p.id;
export const lishogiName = (p: { readonly name: string; readonly username: string | null }): string =>
  p.username ?? p.name;

/** What is known of a player the cards have no row for: a name, no rating. */
export const bareCard = (ref: PlayerRef): PlayerCard => ({
  id: ref.id,
  name: ref.name,
  username: null,
  bot: false,
  rating: null,
});

/** A player without a rating in the category shows the Glicko-2 start, provisional, as on lishogi. */
export const lishogiPlayer = (card: PlayerCard): LishogiPlayer => ({
  id: lishogiId(card),
  name: lishogiName(card),
  title: card.bot ? 'BOT' : null,
  rating: card.rating?.rating ?? NEW_PLAYER.rating,
  provisional: card.rating?.provisional ?? true,
});

/** A clock in seconds, as lishogi's challenges give it (gameFull gives the same in ms). */
export interface LishogiClock {
  readonly limit: number;
  readonly increment: number;
  readonly byoyomi: number;
  /** byoyomi periods; 1 for a Fischer clock, as lishogi's own */
  readonly periods: number;
}

export function clockOf(timeControl: TimeControl): LishogiClock | null {
  switch (timeControl.kind) {
    case 'byoyomi':
      return {
        limit: timeControl.mainSeconds,
        increment: 0,
        byoyomi: timeControl.byoyomiSeconds,
        periods: timeControl.periods,
      };
    case 'fischer':
      return { limit: timeControl.mainSeconds, increment: timeControl.incrementSeconds, byoyomi: 0, periods: 1 };
    case 'correspondence':
    case 'unlimited':
      return null;
    default:
      return timeControl satisfies never;
  }
}

const FRACTIONS: Readonly<Record<number, string>> = { 15: '¼', 30: '½', 45: '¾', 90: '1.5' };

/** lishogi's short form of a clock: minutes, then `+increment`, `|byoyomi` and `(periods)` when more than one. */
export function showClock(clock: LishogiClock): string {
  const minutes = FRACTIONS[clock.limit] ?? String(Math.round((clock.limit / 60) * 100) / 100);
  const increment = clock.increment > 0 || clock.byoyomi === 0 ? `+${clock.increment}` : '';
  const byoyomi = clock.byoyomi > 0 ? `|${clock.byoyomi}` : '';
  const periods = clock.periods > 1 ? `(${clock.periods})` : '';
  return `${minutes}${increment}${byoyomi}${periods}`;
}

export type LishogiTimeControl =
  | ({ readonly type: 'clock'; readonly show: string } & LishogiClock)
  | { readonly type: 'correspondence'; readonly daysPerTurn: number }
  | { readonly type: 'unlimited' };

export function lishogiTimeControl(timeControl: TimeControl): LishogiTimeControl {
  if (timeControl.kind === 'correspondence') return { type: 'correspondence', daysPerTurn: timeControl.daysPerMove };
  const clock = clockOf(timeControl);
  return clock === null ? { type: 'unlimited' } : { type: 'clock', ...clock, show: showClock(clock) };
}

/** lishogi's statuses: a pending challenge is `created`; one past its time, gone on lishogi, `canceled`. */
const CHALLENGE_STATUSES = {
  pending: 'created',
  accepted: 'accepted',
  declined: 'declined',
  cancelled: 'canceled',
  expired: 'canceled',
} as const satisfies Readonly<Record<ChallengeView['status'], string>>;

export interface LishogiChallenge {
  readonly id: string;
  readonly url: string;
  readonly status: (typeof CHALLENGE_STATUSES)[ChallengeView['status']];
  readonly challenger: LishogiPlayer;
  readonly destUser: LishogiPlayer;
  readonly variant: typeof VARIANT;
  readonly rated: boolean;
  readonly speed: Speed;
  readonly timeControl: LishogiTimeControl;
  /** the challenger's colour, as on lishogi */
  readonly color: ChallengeView['color'];
  readonly perf: { readonly name: string };
  readonly direction?: 'in' | 'out';
  /** a handicap's position or a custom one; absent for the standard start */
  readonly initialSfen?: string;
  /** every challenge here may be played over the Bot API or the Board API */
  readonly compat: { readonly bot: true; readonly board: true };
}

/** The initial SFEN of a challenge's game, or null for the standard start. */
export const initialSfenOf = (challenge: Pick<ChallengeView, 'handicap' | 'sfen'>): string | null =>
  challenge.sfen ?? (challenge.handicap === null ? null : HANDICAP_SFENS[challenge.handicap as Handicap]);

export interface ChallengeContext {
  /** the server's origin, for the challenge's `url` */
  readonly origin: string;
  /** the player it is shown to: `direction` is `out` for the challenger, `in` for the challenged */
  readonly viewerId?: string;
  /** the two parties' cards, in the challenge's category; a missing one shows the name alone */
  readonly cards: ReadonlyMap<string, PlayerCard>;
}

export function lishogiChallenge(challenge: ChallengeView, context: ChallengeContext): LishogiChallenge {
  const { cards, viewerId } = context;
  const card = (ref: PlayerRef) => lishogiPlayer(cards.get(ref.id) ?? bareCard(ref));
  const initialSfen = initialSfenOf(challenge);
  const direction =
    viewerId === challenge.challenger.id ? 'out' : viewerId === challenge.opponent.id ? 'in' : undefined;
  return {
    id: challenge.id,
    url: `${context.origin}/api/challenges/${challenge.id}`,
    status: CHALLENGE_STATUSES[challenge.status],
    challenger: card(challenge.challenger),
    destUser: card(challenge.opponent),
    variant: VARIANT,
    rated: challenge.rated,
    speed: speedOf(challenge.timeControl),
    timeControl: lishogiTimeControl(challenge.timeControl),
    color: challenge.color,
    perf: perfOf(challenge.timeControl),
    ...(direction === undefined ? {} : { direction }),
    ...(initialSfen === null ? {} : { initialSfen }),
    compat: { bot: true, board: true },
  };
}
