/**
 * What the page asks of the server for the player: a move (shown once the worker accepts it,
 * on the watch socket), resign, abort, impasse, a rematch (offered to the opponent, answered
 * on their lobby socket or this page's). "Play again" against a bot is a rematch too: a bot
 * the server runs accepts it in the answer, bot-lobby on its lobby socket like a person.
 */
import type { ChallengeView } from '@shogi/protocol';
import { formatUsi, type Move } from '@shogi/rules';
import { api } from '../../api.js';
import { h } from '../../dom.js';
import { lobbySocket } from '../../net/lobby.js';
import { failureSentence } from '../../words/errors.js';
import { askToConfirm } from '../confirm-dialog.js';
import type { FocusWatch } from './focus-watch.js';
import { type GamePageState, latestGame, mySide, opponentBot } from './state.js';
import { settleSubmission, startSubmission } from './transitions.js';

export interface ActionContext {
  readonly state: GamePageState;
  readonly gameId: string;
  /** where rematch offers and their answers show */
  readonly offer: HTMLElement;
  /** the rematch challenges of this game, offered by either side */
  readonly offerIds: Set<string>;
  /**
   * Games of challenges accepted, by challenge id, as the lobby socket told them: an offer's
   * acceptance may arrive before the answer that names the offer.
   */
  readonly accepted: Map<string, string>;
  navigate(path: string): void;
  render(): void;
  /** shows a message in the note */
  say(text: string): void;
  /** whether the page lost focus since the player's previous move */
  readonly focus: FocusWatch;
}

export type Verb = 'resign' | 'abort' | 'impasse';

/** Each action's question and the button that carries it out. */
const QUESTIONS: Readonly<Record<Verb, { question: string; yes: string }>> = {
  resign: { question: 'Resign this game? Your opponent wins.', yes: 'Resign' },
  abort: { question: 'Abort this game? It ends without a result.', yes: 'Abort' },
  impasse: {
    question: 'Declare impasse (27-point rule)? If your pieces do not qualify, you lose.',
    yes: 'Declare impasse',
  },
};

const failureText = (err: unknown): string => failureSentence(err);

export async function submitMove(ctx: ActionContext, m: Move): Promise<void> {
  const { state } = ctx;
  const game = latestGame(state);
  if (!game || !state.me || !state.snap || state.sending) return;
  const usi = formatUsi(m);
  startSubmission(state);
  ctx.render();
  try {
    const answer = await api.move(ctx.gameId, state.me.token, usi, game.ply, ctx.focus.take());
    settleSubmission(state, answer.seq, usi);
  } catch (err) {
    state.message = failureText(err);
  } finally {
    state.sending = false;
    ctx.render();
  }
}

/** Resigns, aborts or declares impasse, once the player confirms. */
export async function act(ctx: ActionContext, verb: Verb): Promise<void> {
  const { me } = ctx.state;
  if (!me || !mySide(ctx.state) || ctx.state.snap?.status !== 'ongoing') return;
  const { question, yes } = QUESTIONS[verb];
  if (!(await askToConfirm(question, yes))) return;
  // the game may have ended while the question was open
  if (ctx.state.snap?.status !== 'ongoing') return;
  try {
    await api.post(`/api/games/${encodeURIComponent(ctx.gameId)}/${verb}`, {}, me.token);
  } catch (err) {
    ctx.say(failureText(err));
  }
}

const TAKEBACK_PATHS = { propose: '', accept: '/accept', decline: '/decline' } as const;

/** Proposes a takeback, or answers the pending one (`decline` withdraws one's own); the events show the outcome. */
export async function takeback(ctx: ActionContext, action: keyof typeof TAKEBACK_PATHS): Promise<void> {
  const { me } = ctx.state;
  if (!me || !mySide(ctx.state) || ctx.state.snap?.status !== 'ongoing') return;
  try {
    await api.post(`/api/games/${encodeURIComponent(ctx.gameId)}/takeback${TAKEBACK_PATHS[action]}`, {}, me.token);
  } catch (err) {
    ctx.say(failureText(err));
  }
}

/**
 * Offers a rematch (or plays a bot again), or accepts the opponent's offer: the answer then
 * names the new game, or the lobby socket does once the opponent accepts.
 */
export async function rematch(ctx: ActionContext): Promise<void> {
  const { me } = ctx.state;
  if (!me) return;
  try {
    const c = await api.post<ChallengeView>(`/api/games/${encodeURIComponent(ctx.gameId)}/rematch`, {}, me.token);
    const gameId = c.gameId ?? ctx.accepted.get(c.id);
    if (gameId) return ctx.navigate(`/games/${gameId}`);
    ctx.offerIds.add(c.id);
    ctx.offer.replaceChildren(
      opponentBot(ctx.state) === null
        ? 'Rematch offered; waiting for your opponent…'
        : `Waiting for ${c.opponent.name} to accept…`,
    );
  } catch (err) {
    ctx.say(failureText(err));
  }
}

/** The lobby socket a rematch offer, acceptance or refusal comes on; null for a visitor. */
export function listenForRematch(ctx: ActionContext): { close(): void } | null {
  const { me } = ctx.state;
  if (!me) return null;
  return lobbySocket(me.token, (m) => {
    if (m.type === 'accepted') {
      if (ctx.offerIds.has(m.challengeId)) ctx.navigate(`/games/${m.gameId}`);
      else ctx.accepted.set(m.challengeId, m.gameId);
    } else if (m.type === 'rematch' && m.challenge.rematchOf === ctx.gameId) {
      ctx.offerIds.add(m.challenge.id);
      ctx.offer.replaceChildren(
        `${m.challenge.challenger.name} offers a rematch. `,
        h('button', { type: 'button', class: 'primary', onclick: () => rematch(ctx) }, 'Accept rematch'),
      );
    } else if (m.type === 'declined' && ctx.offerIds.has(m.challengeId)) ctx.offer.replaceChildren('Rematch declined.');
  });
}
