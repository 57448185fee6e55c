/**
 * The analysis board's "Engine" switch (off by default). Turning it on loads the engine's
 * code, a chunk of its own (live-engine.ts), and from then on the position shown is
 * evaluated as the player moves through the moves and branches; turning it off stops the
 * search.
 */
import { h } from '../../dom.js';
import type { LiveEngine } from './live-engine.js';

type Module = typeof import('./live-engine.js');

export interface LiveToggle {
  readonly element: HTMLElement;
  /** The position shown: evaluated while the switch is on. */
  show(sfen: string, moves: readonly string[], sideToMove: 'sente' | 'gote'): void;
  close(): void;
}

/** `onBest`: the best move of the position shown changed (null: none yet, or the switch is off). */
export function liveToggle(onBest: (usi: string | null) => void): LiveToggle {
  let module: Module | null = null;
  let engine: LiveEngine | null = null;
  let on = false;
  let shown: Parameters<LiveToggle['show']> | null = null;
  const box = h('div', { class: 'live-box' });
  const note = h('p', { class: 'note', role: 'alert' });
  let best: string | null = null;
  const tellBest = (usi: string | null) => {
    if (usi === best) return;
    best = usi;
    onBest(usi);
  };
  const paint = () => {
    if (module === null || engine === null) return;
    box.replaceChildren(module.liveEnginePanel(engine.state));
    tellBest(engine.state.lines.get(1)?.pv[0] ?? null);
  };
  const evaluate = () => {
    if (engine !== null && shown !== null) engine.evaluate(...shown);
  };
  const button = h(
    'button',
    {
      type: 'button',
      class: 'live-toggle',
      'aria-pressed': 'false',
      title: "Evaluate the position shown with the server's engine",
    },
    'Engine',
  );
  const set = (value: boolean) => {
    on = value;
    button.setAttribute('aria-pressed', String(on));
    note.textContent = '';
    if (!on) {
      engine?.stop();
      engine = null;
      box.replaceChildren();
      tellBest(null);
      return;
    }
    const loaded = module === null ? import('./live-engine.js') : Promise.resolve(module);
    loaded.then(
      (m) => {
        module = m;
        if (!on || engine !== null) return;
        engine = m.liveEngine(paint);
        evaluate();
        paint();
      },
      () => {
        note.textContent = 'The engine could not be loaded: reload the page and try again.';
        set(false);
      },
    );
  };
  button.addEventListener('click', () => set(!on));
  return {
    element: h('section', { class: 'live', 'aria-label': 'Engine' }, button, box, note),
    show(...position) {
      shown = position;
      evaluate();
    },
    close() {
      set(false);
    },
  };
}
