/**
 * Challenges to you, with everything that decides whether to take one: who (BOT title and
 * rating in the challenge's category, "1500?" for a player with none yet, as lishogi shows
 * a new player), the clock, rated or casual, the colour you would play, the handicap. Accept
 * opens the game; Decline drops it.
 */
import type { ChallengeList, ChallengeView, PlayerProfile } from '@shogi/protocol';
import { categoryOf } from '@shogi/ratings';
import { api } from '../api.js';
import { h } from '../dom.js';
import { identity } from '../session.js';
import { clockSpelledOut, timeControlText } from '../shogi/clock.js';
import { HANDICAP_NAMES } from '../shogi/handicap-names.js';
import { ratingText } from '../shogi/rating-text.js';
import { failureSentence } from '../words/errors.js';
import { titledName } from './bot-badge.js';

/** Glicko-2's starting rating: what a player without rated games in the category is taken to be. */
const NEW_PLAYER = { rating: 1500, provisional: true };

async function challengerRating(c: ChallengeView): Promise<string> {
  const category = categoryOf(c.timeControl);
  const profile = await api.get<PlayerProfile>(`/api/players/${encodeURIComponent(c.challenger.id)}`).catch(() => null);
  if (profile === null) return '';
  const rating = category === null ? undefined : profile.ratings.find((r) => r.category === category);
  return ratingText(rating ?? NEW_PLAYER);
}

/** What you would play: the challenger's colour turned round. */
const yourSide = (c: ChallengeView) =>
  c.color === 'sente' ? 'you play gote ☖' : c.color === 'gote' ? 'you play sente ☗' : 'colours at random';

export function challengeList(navigate: (path: string) => void): { element: HTMLElement; refresh(): void } {
  const list = h('ul', { class: 'challenges', 'aria-label': 'Challenges to you' });
  const note = h('p', { class: 'note', role: 'alert' });
  const element = h('section', { class: 'incoming', hidden: true }, h('h2', {}, 'Challenges to you'), list, note);

  const refresh = async () => {
    const me = identity();
    if (!me) {
      element.hidden = true;
      return;
    }
    const all = await api.authed<ChallengeList>('/api/challenges', me.token).catch(() => null);
    const pending = (all?.incoming ?? []).filter((c) => c.status === 'pending');
    const answer = async (c: ChallengeView, verb: 'accept' | 'decline') => {
      try {
        const done = await api.post<ChallengeView>(`/api/challenges/${c.id}/${verb}`, {}, me.token);
        if (done.gameId) navigate(`/games/${done.gameId}`);
        else void refresh();
      } catch (err) {
        note.textContent = failureSentence(err);
      }
    };
    const ratings = await Promise.all(pending.map(challengerRating));
    element.hidden = pending.length === 0;
    list.replaceChildren(
      ...pending.map((c, i) =>
        h(
          'li',
          { 'data-challenge': c.id },
          h(
            'span',
            { class: 'who' },
            ...titledName(c.challenger),
            ratings[i] ? h('span', { class: 'rating' }, ` (${ratings[i]})`) : '',
            c.rematchOf ? ' offers a rematch' : ' challenges you',
          ),
          h(
            'span',
            { class: 'terms' },
            h('span', { title: clockSpelledOut(c.timeControl) }, timeControlText(c.timeControl)),
            ` · ${c.rated ? 'rated' : 'casual'} · ${yourSide(c)}`,
            c.handicap ? ` · ${HANDICAP_NAMES[c.handicap]}` : '',
          ),
          h(
            'span',
            { class: 'answer' },
            h('button', { type: 'button', class: 'primary', onclick: () => void answer(c, 'accept') }, 'Accept'),
            h('button', { type: 'button', onclick: () => void answer(c, 'decline') }, 'Decline'),
          ),
        ),
      ),
    );
  };
  void refresh();
  return { element, refresh: () => void refresh() };
}
