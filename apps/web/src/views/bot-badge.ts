/**
 * lishogi's BOT title beside a bot account's name: a small label before the name. It is
 * plain text followed by a space, so a screen reader reads "BOT Name" as two words.
 */
import { h } from '../dom.js';

export interface Titled {
  readonly name: string;
  readonly title?: 'BOT' | null | undefined;
}

/** The label and its space for a bot account, nothing for anyone else. */
export const botBadge = (player: Titled): (Node | string)[] =>
  player.title === 'BOT' ? [h('span', { class: 'bot-title', title: 'Bot account' }, 'BOT'), ' '] : [];

/** The name with its badge, as nodes to put where the bare name went. */
export const titledName = (player: Titled): (Node | string)[] => [...botBadge(player), player.name];

/** The name as text (labels, announcements): "BOT Name" for a bot account. */
export const titledText = (player: Titled): string => (player.title === 'BOT' ? `BOT ${player.name}` : player.name);
