/**
 * The player's controls beside the board: resign, abort, impasse, a takeback (proposed,
 * accepted, declined or withdrawn on the line below the buttons), rematch (or "Play again"
 * against a bot: a rematch too, the same clock with the colours swapped), the line where
 * rematch offers show, and the field for a move typed in USI. Built once; which of them show
 * is worked out in state.ts.
 */
import { h } from '../../dom.js';
import type { ControlsShown } from './state.js';

export interface ControlHandlers {
  resign(): void;
  abort(): void;
  impasse(): void;
  /** offers a rematch: the Rematch and Play again buttons alike */
  rematch(): void;
  /** the USI form was submitted */
  typed(): void;
  takeback(action: 'propose' | 'accept' | 'decline'): void;
}

export interface Controls {
  /** the buttons and the offer line */
  readonly element: HTMLElement;
  /** where rematch offers and their answers show */
  readonly offer: HTMLElement;
  readonly usiForm: HTMLFormElement;
  readonly usiInput: HTMLInputElement;
  render(shown: ControlsShown): void;
}

const NONE_SHOWN: ControlsShown = {
  resign: false,
  abort: false,
  impasse: false,
  rematch: false,
  playAgain: false,
  usiForm: false,
  usiEnabled: false,
  takeback: false,
  takebackPending: null,
};

export function controls(on: ControlHandlers): Controls {
  const resign = h('button', { type: 'button', class: 'danger', onclick: () => on.resign() }, 'Resign');
  const again = h('button', { type: 'button', class: 'primary', onclick: () => on.rematch() }, 'Play again');
  const abort = h('button', { type: 'button', onclick: () => on.abort() }, 'Abort');
  const impasse = h('button', { type: 'button', onclick: () => on.impasse() }, 'Declare impasse');
  const rematch = h('button', { type: 'button', class: 'primary', onclick: () => on.rematch() }, 'Rematch');
  const offer = h('div', { class: 'offer', role: 'status' });
  const propose = h('button', { type: 'button', onclick: () => on.takeback('propose') }, 'Takeback');
  const takebackLine = takebackAnswers(on);
  const element = h(
    'div',
    { class: 'controls' },
    resign,
    abort,
    propose,
    impasse,
    rematch,
    again,
    takebackLine.element,
    offer,
  );
  const { usiForm, usiInput } = usiField(on.typed);
  const render = (shown: ControlsShown) => {
    resign.hidden = !shown.resign;
    abort.hidden = !shown.abort;
    impasse.hidden = !shown.impasse;
    rematch.hidden = !shown.rematch;
    usiForm.hidden = !shown.usiForm;
    again.hidden = !shown.playAgain;
    usiInput.disabled = !shown.usiEnabled;
    propose.hidden = !shown.takeback;
    takebackLine.render(shown.takebackPending);
  };
  // nothing shows before the game's snapshot says who plays and how it stands: a button shown
  // then would do nothing when pressed
  render(NONE_SHOWN);
  return { element, offer, usiForm, usiInput, render };
}

/** The line of a pending takeback proposal: the opponent's, to accept or decline, or one's own, to withdraw. */
function takebackAnswers(on: ControlHandlers): {
  element: HTMLElement;
  render(pending: ControlsShown['takebackPending']): void;
} {
  const text = h('span');
  const accept = h('button', { type: 'button', class: 'primary', onclick: () => on.takeback('accept') }, 'Accept');
  const decline = h('button', { type: 'button', onclick: () => on.takeback('decline') }, 'Decline');
  const withdraw = h('button', { type: 'button', onclick: () => on.takeback('decline') }, 'Withdraw');
  const element = h('div', { class: 'offer takeback-offer', role: 'status' }, text, accept, decline, withdraw);
  const render = (pending: ControlsShown['takebackPending']) => {
    element.hidden = pending === null;
    text.textContent =
      pending === 'theirs' ? 'Your opponent asks to take back a move. ' : 'You asked to take back a move. ';
    accept.hidden = pending !== 'theirs';
    decline.hidden = pending !== 'theirs';
    withdraw.hidden = pending !== 'mine';
  };
  return { element, render };
}

function usiField(typed: () => void): { usiForm: HTMLFormElement; usiInput: HTMLInputElement } {
  const usiInput = h('input', {
    id: 'usi-input',
    name: 'usi',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: 'e.g. 7g7f, P*5e, 8h2b+',
    'aria-describedby': 'usi-help',
  });
  const usiForm = h(
    'form',
    {
      class: 'usi-form',
      onsubmit: (e: Event) => {
        e.preventDefault();
        typed();
      },
    },
    h('label', { for: 'usi-input' }, 'Your move (USI)'),
    usiInput,
    h('button', { type: 'submit' }, 'Play'),
    h('small', { id: 'usi-help' }, 'from-square to-square, + to promote; drops as P*5e'),
  );
  return { usiForm, usiInput };
}
