/**
 * The lobby: quick pairings on the common clocks, the computer in one click as either colour
 * (computer-play.ts), one "Create a game" dialog for everything
 * else (create-game.ts: anyone, a friend, the computer), the open seeks as a sortable table,
 * challenges to you, your games in progress, and beside them the TV (the top-rated live
 * game) and the live games. Each part is a module of its own; this one lays them out.
 */
import type { BotRef } from '@shogi/protocol';
import { api } from '../api.js';
import { h } from '../dom.js';
import '../styles/lobby.css';
import { clockSpelledOut } from '../shogi/clock.js';
import { CLOCK_PRESETS, presetLabel } from '../shogi/clock-presets.js';
import { accountBar } from './account-bar.js';
import { quickBot } from './bot-terms.js';
import { challengeList } from './challenges.js';
import { computerPlay } from './computer-play.js';
import { createGameDialog } from './create-game.js';
import { followLiveGames, liveGrid } from './live-games.js';
import { lobbyPlay } from './lobby-play.js';
import { myGames } from './my-games.js';
import { seekList } from './seek-list.js';
import { tournamentsPanel } from './tournaments-panel.js';
import { tvPanel } from './tv.js';

export function lobbyPage(root: HTMLElement, navigate: (path: string) => void): () => void {
  const note = h('p', { class: 'note', role: 'alert' });
  const show = (error: string | null) => {
    note.textContent = error ?? '';
  };
  let bots: readonly BotRef[] = [];
  // the bot accounts seen in the live games (by id and name), for the BOT title in your games
  const botIds = new Set<string>();

  const live = followLiveGames();
  const mine = myGames((o) => botIds.has(o.id) || botIds.has(o.username.toLowerCase()));
  live.onChange(() => {
    const known = botIds.size;
    for (const g of live.games.values())
      for (const p of [g.players.sente, g.players.gote])
        if (p.title === 'BOT') botIds.add(p.id).add(p.name.toLowerCase());
    if (botIds.size > known) mine.render();
  });
  const challenges = challengeList(navigate);
  const account = accountBar(() => {
    play.listen();
    challenges.refresh();
    mine.refresh();
    seeks.refresh();
  });
  const play = lobbyPlay({
    navigate,
    guestName: () => account.guestName(),
    onIdentity: () => account.render(),
    onChallenge: () => challenges.refresh(),
    onSeeks: (list) => seeks.show(list),
    onLive: (connected) => seeks.live(connected),
  });
  const seeks = seekList((s) => void play.answerSeek(s).then(show));
  // a returning player follows the lobby at once: the seeks live, and counted as looking
  play.listen();
  const dialog = createGameDialog((request) => play.create(request));
  const computer = computerPlay((botId, body) => play.playBot(botId, body));

  // a click that comes before the list waits for it, rather than finding no bot
  const listed = api.bots().then(
    (list) => {
      bots = list.bots;
      dialog.offerBots(bots, list.engine);
      computer.offerBots(bots, list.engine);
    },
    () => {},
  );
  const playQuick = async () => {
    await listed;
    const bot = quickBot(bots);
    show(
      bot === null
        ? 'No computer opponent is playing on this server just now.'
        : await play.playBot(bot.id, { side: 'sente' }),
    );
  };

  root.replaceChildren(
    h(
      'section',
      { class: 'lobby' },
      h(
        'div',
        { class: 'lobby-main' },
        h('h1', {}, 'Play shogi'),
        account.element,
        h(
          'div',
          { class: 'quick', role: 'group', 'aria-label': 'Quick pairing' },
          // written as players write clocks; the title spells it out
          ...CLOCK_PRESETS.map((tc) =>
            h(
              'button',
              {
                type: 'button',
                class: 'quick-seek',
                title: clockSpelledOut(tc),
                onclick: async () =>
                  show(
                    await play.create({
                      ok: true,
                      kind: 'seek',
                      body: { timeControl: tc, rated: false, color: 'random' },
                    }),
                  ),
              },
              h('strong', {}, presetLabel(tc)),
              h('small', {}, tc.kind === 'byoyomi' ? 'byoyomi' : tc.kind === 'unlimited' ? 'casual' : tc.kind),
            ),
          ),
          h(
            'button',
            { type: 'button', class: 'quick-seek', id: 'play-bot', onclick: () => void playQuick() },
            h('strong', {}, 'Play the bot'),
            h('small', {}, 'at once, you move first'),
          ),
        ),
        computer.element,
        h(
          'div',
          { class: 'create-buttons' },
          h(
            'button',
            { type: 'button', class: 'primary', id: 'create-game', onclick: () => dialog.open('anyone') },
            'Create a game',
          ),
          h(
            'button',
            { type: 'button', id: 'play-friend', onclick: () => dialog.open('friend') },
            'Play with a friend',
          ),
          h(
            'button',
            { type: 'button', id: 'play-computer', onclick: () => dialog.open('engine') },
            // the home page's "Play the computer" panel plays at once; this opens every term
            'Computer, custom terms…',
          ),
        ),
        play.status,
        note,
        challenges.element,
        mine.element,
        h('h2', {}, 'Open seeks'),
        seeks.element,
      ),
      h('aside', { class: 'lobby-side' }, tournamentsPanel(), tvPanel(live), h('h2', {}, 'Live games'), liveGrid(live)),
      dialog.element,
    ),
  );
  return () => {
    live.close();
    play.close();
    seeks.close();
    mine.close();
    if (dialog.element.open) dialog.element.close();
  };
}
