/**
 * A question the page asks before something that cannot be undone (resign, abort, impasse),
 * in a dialog of the page's own: the browser's confirm() names the site instead of the game,
 * cannot be styled, and blocks every timer of the page while it is open, the clocks included.
 */
import { h } from '../dom.js';

/** Resolves true when the player answers `yes`; Cancel, Escape or a click on No give false. */
export function askToConfirm(question: string, yes: string, no = 'Keep playing'): Promise<boolean> {
  return new Promise((resolve) => {
    const id = 'confirm-action-question';
    const dialog = h(
      'dialog',
      { class: 'confirm-action', 'aria-labelledby': id },
      h(
        'form',
        { method: 'dialog' },
        h('p', { id }, question),
        h(
          'div',
          { class: 'dialog-buttons' },
          // the harmless answer has the focus, so a stray Enter keeps the game going
          h('button', { value: 'no', class: 'no', autofocus: true }, no),
          h('button', { value: 'yes', class: 'danger yes' }, yes),
        ),
      ),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'yes');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Closes the open question as a No: the page it was asked on is left, or its game has ended. */
export function dismissQuestion(): void {
  document.querySelector<HTMLDialogElement>('dialog.confirm-action')?.close();
}
