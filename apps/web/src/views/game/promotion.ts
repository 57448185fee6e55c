/**
 * The promotion prompt: a modal dialog asked only when both the plain and the promoting form
 * of a move are legal. Its form closes it with the button's value, so Escape cancels.
 */
import type { Move } from '@shogi/rules';
import { h } from '../../dom.js';

export interface PromotionPrompt {
  readonly element: HTMLDialogElement;
  /** The move chosen; null when the prompt was cancelled. */
  choose(plain: Move, promote: Move): Promise<Move | null>;
}

export function promotionPrompt(): PromotionPrompt {
  const element = h(
    'dialog',
    { class: 'promotion', 'aria-label': 'Promote this piece?' },
    h('p', {}, 'Promote?'),
    h(
      'form',
      { method: 'dialog' },
      h('button', { value: 'promote', class: 'primary' }, '成 Promote'),
      h('button', { value: 'plain' }, '不成 Keep'),
      h('button', { value: 'cancel', class: 'link' }, 'Cancel'),
    ),
  );
  const choose = (plain: Move, promote: Move): Promise<Move | null> =>
    new Promise((resolve) => {
      element.addEventListener(
        'close',
        () => resolve(element.returnValue === 'promote' ? promote : element.returnValue === 'plain' ? plain : null),
        { once: true },
      );
      element.returnValue = '';
      element.showModal();
    });
  return { element, choose };
}
