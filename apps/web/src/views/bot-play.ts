/**
 * The lobby's bot section: "Play the bot" starts a game against the demo bot at once (a guest
 * player is made on the first click, so a newcomer plays within seconds), and a form plays an
 * engine bot at a chosen level, on one of the lobby's clocks, with a colour and a handicap. The
 * form shows once `GET /api/bots` lists engine bots.
 */
import type { BotGameBody, BotRef } from '@shogi/protocol';
import { HANDICAPS } from '@shogi/rules';
import { ApiFailure, api } from '../api.js';
import { h } from '../dom.js';
import { withIdentity } from '../session.js';
import { CLOCK_PRESETS, presetLabel } from '../shogi/clock-presets.js';
import { HANDICAP_NAMES } from '../shogi/handicap-names.js';
import { botGameBody, type Colour, engineLevels, levelLabel, quickBot } from './bot-terms.js';

export interface BotPanelContext {
  navigate(path: string): void;
  /** the name a new guest takes */
  guestName(): string;
  /** told once a guest player may have been made */
  onIdentity(): void;
}

/** The clock the form shows first: 10|30, long enough to think against an engine. */
const DEFAULT_CLOCK = 1;

export function botPanel(ctx: BotPanelContext): HTMLElement {
  const note = h('p', { class: 'note', role: 'alert' });
  let bots: readonly BotRef[] | null = null;
  const listed = async () => {
    bots ??= (await api.bots()).bots;
    return bots;
  };

  const start = async (botId: string, body: BotGameBody) => {
    note.textContent = '';
    try {
      const view = await withIdentity((me) => api.botGame(botId, me.token, body), ctx.guestName());
      ctx.onIdentity();
      ctx.navigate(`/games/${view.id}`);
    } catch (err) {
      note.textContent = err instanceof ApiFailure ? err.message : String(err);
    }
  };
  const playQuick = async (side: Colour) => {
    const bot = quickBot(await listed().catch(() => []));
    if (bot === null) note.textContent = 'No bot runs on this server (it starts with `npm start`).';
    else await start(bot.id, { side });
  };

  const form = engineForm((botId, body) => void start(botId, body));
  listed().then(
    (list) => form.offer(list),
    () => {},
  );
  return h(
    'div',
    { class: 'bot-play' },
    h(
      'div',
      { class: 'buttons' },
      h(
        'button',
        { type: 'button', class: 'primary', id: 'play-bot', onclick: () => void playQuick('sente') },
        'Play the bot (you move first)',
      ),
      h('button', { type: 'button', onclick: () => void playQuick('gote') }, 'Play the bot as gote'),
    ),
    form.element,
    note,
  );
}

/** The engine form: level, clock, colour and handicap, each a labelled select. */
function engineForm(play: (botId: string, body: BotGameBody) => void) {
  const level = h('select', { id: 'bot-level', name: 'level' });
  const clock = h(
    'select',
    { id: 'bot-clock', name: 'clock' },
    ...CLOCK_PRESETS.map((tc, i) => h('option', { value: i, selected: i === DEFAULT_CLOCK }, presetLabel(tc))),
  );
  const color = h(
    'select',
    { id: 'bot-color', name: 'color' },
    h('option', { value: 'random' }, 'Random colour'),
    h('option', { value: 'sente' }, 'I play sente ☗'),
    h('option', { value: 'gote' }, 'I play gote ☖'),
  );
  const handicap = h(
    'select',
    { id: 'bot-handicap', name: 'handicap', 'aria-describedby': 'bot-handicap-help' },
    h('option', { value: '' }, 'Even game'),
    ...HANDICAPS.map((name) => h('option', { value: name }, HANDICAP_NAMES[name])),
  );
  const element = h(
    'form',
    {
      class: 'engine-bot',
      hidden: true,
      'aria-labelledby': 'engine-bot-title',
      onsubmit: (e: Event) => {
        e.preventDefault();
        const tc = CLOCK_PRESETS[Number(clock.value)] ?? { kind: 'unlimited' };
        play(level.value, botGameBody(color.value as Colour, tc, handicap.value));
      },
    },
    h('h2', { id: 'engine-bot-title' }, 'Play the engine'),
    h(
      'div',
      { class: 'challenge-terms' },
      // each label holds its select, so the two wrap together
      h('label', { for: 'bot-level' }, 'Level ', level),
      h('label', { for: 'bot-clock' }, 'Clock ', clock),
      h('label', { for: 'bot-color' }, 'Colour ', color),
      h('label', { for: 'bot-handicap' }, 'Handicap ', handicap),
      h('button', { type: 'submit', class: 'primary', id: 'play-engine' }, 'Play'),
    ),
    h('small', { id: 'bot-handicap-help' }, 'In a handicap game the giver plays gote ☖ and moves first.'),
  );
  return {
    element,
    /** fills the levels from the listed bots; the form stays hidden without engine bots */
    offer(bots: readonly BotRef[]) {
      const levels = engineLevels(bots);
      level.replaceChildren(...levels.map((l) => h('option', { value: l.id }, levelLabel(l.level, levels))));
      element.hidden = levels.length === 0;
    },
  };
}
