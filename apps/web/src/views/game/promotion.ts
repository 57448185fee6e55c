/**
 * The promotion choice drawn on the board, as lishogi shows it: the promoted piece over the
 * target square and the plain one beside it, toward the middle of the board. Shown only
 * when both forms are legal; a click elsewhere on the board or Escape takes the move back.
 * By keyboard: the promoted piece has the focus, an arrow key moves it to the other, Enter or
 * Space chooses.
 */
import { h } from '../../dom.js';
import type { PieceStyle } from '../../shogi/pieces.js';
import { displayCell } from '../board.js';
import { pieceSvg } from '../piece-svg.js';
import type { PromotionChoice } from './state.js';

export type ChoiceKind = 'promote' | 'plain' | null;

export function promotionChooser(
  choice: PromotionChoice,
  o: { readonly flipped: boolean; readonly style: PieceStyle },
  choose: (kind: ChoiceKind) => void,
): HTMLDialogElement {
  const { row, col } = displayCell(choice.to, o.flipped);
  const turned = choice.gote !== o.flipped;
  const option = (kind: 'promote' | 'plain', label: string) =>
    h(
      'button',
      { type: 'button', value: kind, class: `choice ${kind}`, 'aria-label': label, onclick: () => choose(kind) },
      h('span', { class: 'piece' }, pieceSvg(kind === 'promote' ? choice.type + 8 : choice.type, turned, o.style)),
    );
  const promote = option('promote', 'Promote (成)');
  const plain = option('plain', 'Keep unpromoted (不成)');
  // the plain piece goes toward the middle, so both stay on the board
  const down = row <= 4;
  const el = h(
    'dialog',
    {
      open: true,
      class: 'promotion',
      'aria-label': 'Promote this piece?',
      onkeydown: (e: Event) => {
        const key = (e as KeyboardEvent).key;
        if (key === 'Escape') {
          e.preventDefault();
          choose(null);
        } else if (key.startsWith('Arrow')) {
          // two choices: any arrow goes to the other one (Enter or Space takes the one focused)
          e.preventDefault();
          (document.activeElement === promote ? plain : promote).focus();
        }
      },
    },
    ...(down ? [promote, plain] : [plain, promote]),
  );
  el.style.left = `${(col / 9) * 100}%`;
  el.style.top = `${((down ? row : row - 1) / 9) * 100}%`;
  return el;
}
