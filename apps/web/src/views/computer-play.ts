/**
 * "Play the computer" on the home page, as lishogi's: a level and a clock (the last ones
 * played, remembered by prefs/computer.ts) and one button per colour, so a game as gote is
 * one click. The Create a game dialog still offers everything else (a handicap, any clock).
 */
import type { BotGameBody, BotRef, EngineStatus } from '@shogi/protocol';
import { h } from '../dom.js';
import { clockToOffer, levelToOffer, saveComputerChoice, savedComputerChoice } from '../prefs/computer.js';
import { clockSpelledOut } from '../shogi/clock.js';
import { CLOCK_PRESETS, presetLabel } from '../shogi/clock-presets.js';
import { type Colour, engineLevels, levelLabel, NO_ENGINE } from './bot-terms.js';

export interface ComputerPlay {
  readonly element: HTMLElement;
  /**
   * offers the engine levels once the bots are listed; the panel hides when there are none,
   * and says the levels play built-in moves while no engine runs
   */
  offerBots(bots: readonly BotRef[], engine?: EngineStatus): void;
}

/** `play` starts the game; it resolves with a sentence to show when it could not. */
export function computerPlay(play: (botId: string, body: BotGameBody) => Promise<string | null>): ComputerPlay {
  const level = h('select', { id: 'computer-level', name: 'level' });
  const clock = h(
    'select',
    { id: 'computer-clock', name: 'clock' },
    ...CLOCK_PRESETS.map((tc, i) => h('option', { value: i, title: clockSpelledOut(tc) }, presetLabel(tc))),
  );
  clock.selectedIndex = clockToOffer(CLOCK_PRESETS, savedComputerChoice());
  let levels: { id: string; level: number }[] = [];
  const chosenLevel = () => levels.find((l) => l.id === level.value) ?? null;
  const chosenClock = () => CLOCK_PRESETS[clock.selectedIndex] ?? CLOCK_PRESETS[0];
  const remember = () => {
    const tc = chosenClock();
    if (tc) saveComputerChoice(chosenLevel()?.level ?? null, tc);
  };
  level.addEventListener('change', remember);
  clock.addEventListener('change', remember);

  const start = async (side: Colour) => {
    const bot = chosenLevel();
    const timeControl = chosenClock();
    if (!bot || !timeControl) return;
    remember();
    for (const b of buttons) b.disabled = true;
    const error = await play(bot.id, { side, timeControl });
    for (const b of buttons) b.disabled = false;
    if (error !== null) note.textContent = error;
  };
  const colourButton = (side: Colour, mark: string, label: string) =>
    h(
      'button',
      { type: 'button', class: `computer-side ${side}`, 'data-side': side, onclick: () => void start(side) },
      h('span', { class: 'mark', 'aria-hidden': 'true' }, mark),
      ` ${label}`,
    );
  const buttons = [
    colourButton('sente', '☗', 'Play as sente'),
    colourButton('random', '?', 'Random colour'),
    colourButton('gote', '☖', 'Play as gote'),
  ];
  const note = h('p', { class: 'note', role: 'alert' });
  const noEngine = h('p', { class: 'engine-note', id: 'computer-no-engine', hidden: true }, NO_ENGINE);
  const element = h(
    'section',
    { class: 'computer-play', 'aria-labelledby': 'computer-play-title' },
    h('h2', { id: 'computer-play-title' }, 'Play the computer'),
    h(
      'div',
      { class: 'computer-terms' },
      h('label', { for: 'computer-level' }, 'Level ', level),
      h('label', { for: 'computer-clock' }, 'Clock ', clock),
    ),
    noEngine,
    h('div', { class: 'computer-sides', role: 'group', 'aria-label': 'Your colour' }, ...buttons),
    h('small', {}, 'Sente (☗) moves first.'),
    note,
  );
  element.hidden = true;
  return {
    element,
    offerBots(bots, engine) {
      noEngine.hidden = engine?.running !== false;
      levels = engineLevels(bots);
      level.replaceChildren(...levels.map((l) => h('option', { value: l.id }, levelLabel(l.level, levels))));
      level.value = levelToOffer(levels, savedComputerChoice())?.id ?? '';
      element.hidden = levels.length === 0;
    },
  };
}
