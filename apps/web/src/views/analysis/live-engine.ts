/**
 * The analysis board's own engine, loaded only when the player turns it on (a chunk of its
 * own): the server's engine evaluates the position shown (`POST /api/analysis/position`,
 * NDJSON), and the panel follows it depth by depth: an evaluation bar, the score, the depth
 * and the best line in the player's notation. A new position cancels the search before it
 * (the server then stops it); the search also stops when the panel closes.
 */
import type { AnalysisScore, ErrorBody, PositionEvalDepth, PositionEvalLine } from '@shogi/protocol';
import { ApiFailure } from '../../api.js';
import { h } from '../../dom.js';
import { moveNotation } from '../../prefs/notation.js';
import { withIdentity } from '../../session.js';
import { notatedMoves } from '../../shogi/notation.js';
import { failureSentence } from '../../words/errors.js';
import { scoreText, winningChance } from './eval.js';

/** Positions stepped through quickly are not each sent: only the one the player stops at. */
const SETTLE_MS = 250;

export interface LiveEngineState {
  /** the position asked about: its start and the moves to it */
  sfen: string;
  moves: readonly string[];
  engineName: string;
  sideToMove: 'sente' | 'gote';
  /** the latest depth line of each line of play, by its MultiPV index */
  readonly lines: Map<number, PositionEvalDepth>;
  searching: boolean;
  /** why the search ended, when it has */
  ended: string;
  problem: string;
}

export interface LiveEngine {
  readonly state: LiveEngineState;
  /** Evaluates this position (nothing new when it is the one being evaluated). */
  evaluate(sfen: string, moves: readonly string[], sideToMove: 'sente' | 'gote'): void;
  stop(): void;
}

const ENDINGS: Record<string, string> = {
  depth: 'Search finished.',
  time: 'Search finished (time).',
  superseded: 'Stopped: another search of yours replaced it.',
  stopped: 'The engine stopped.',
  unavailable: 'The engine stopped answering.',
};

export function liveEngine(changed: () => void): LiveEngine {
  const state: LiveEngineState = {
    sfen: '',
    moves: [],
    engineName: '',
    sideToMove: 'sente',
    lines: new Map(),
    searching: false,
    ended: '',
    problem: '',
  };
  let controller: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const cancel = () => {
    clearTimeout(timer);
    controller?.abort();
    controller = null;
  };

  const take = (line: PositionEvalLine) => {
    if (line.type === 'start') state.engineName = line.engine.name;
    else if (line.type === 'depth') state.lines.set(line.multipv, line);
    else {
      state.searching = false;
      state.ended = ENDINGS[line.reason] ?? '';
    }
    changed();
  };

  const run = async (signal: AbortSignal) => {
    const res = await withIdentity(async (who) => {
      const answer = await fetch('/api/analysis/position', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}` },
        body: JSON.stringify({ sfen: state.sfen, moves: state.moves }),
        signal,
      });
      if (!answer.ok) throw new ApiFailure(answer.status, (await answer.json()) as ErrorBody);
      return answer;
    });
    if (res.body === null) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
        const text = buffer.slice(0, at).trim();
        buffer = buffer.slice(at + 1);
        if (text !== '' && !signal.aborted) take(JSON.parse(text) as PositionEvalLine);
      }
    }
  };

  return {
    state,
    evaluate(sfen, moves, sideToMove) {
      if (controller !== null && sfen === state.sfen && moves.join(' ') === state.moves.join(' ')) return;
      cancel();
      Object.assign(state, { sfen, moves: [...moves], sideToMove, searching: true, ended: '', problem: '' });
      state.lines.clear();
      const mine = new AbortController();
      controller = mine;
      changed();
      timer = setTimeout(() => {
        run(mine.signal).then(
          () => {
            if (controller !== mine) return;
            state.searching = false;
            changed();
          },
          (err: unknown) => {
            if (controller !== mine || mine.signal.aborted) return;
            state.searching = false;
            state.problem = failureSentence(err);
            changed();
          },
        );
      }, SETTLE_MS);
    },
    stop() {
      cancel();
      state.searching = false;
    },
  };
}

/** The panel: the bar, the score and depth, and the best line from the position shown. */
export function liveEnginePanel(state: LiveEngineState): HTMLElement {
  const best = state.lines.get(1);
  const parts: (Node | string)[] = [];
  parts.push(evalBar(best?.score ?? null));
  if (state.problem) parts.push(h('p', { class: 'note live-problem' }, state.problem));
  else if (best === undefined)
    parts.push(h('p', { class: 'live-status', role: 'status' }, state.searching ? 'Thinking…' : state.ended));
  else {
    parts.push(
      h(
        'p',
        { class: 'live-eval' },
        h('strong', { class: 'live-score' }, scoreText(best.score, state.sideToMove)),
        h('span', { class: 'live-depth' }, ` depth ${best.depth}`),
        state.searching ? '' : h('span', { class: 'live-ended' }, ` · ${state.ended}`),
      ),
    );
    for (const [index, line] of [...state.lines.entries()].sort(([a], [b]) => a - b))
      parts.push(h('p', { class: 'live-line', 'data-multipv': index }, lineText(state, line.pv)));
    if (state.engineName) parts.push(h('p', { class: 'engine-name' }, state.engineName));
  }
  return h('div', { class: 'live-engine' }, ...parts);
}

/** Sente's share of the bar, from its winning chances: half at an even score. */
function evalBar(score: AnalysisScore | null): HTMLElement {
  const share = score === null ? 50 : Math.round(((winningChance(score) + 1) / 2) * 1000) / 10;
  const sente = h('div', { class: 'live-bar-sente' });
  // set through the CSSOM: the page's policy refuses style attributes
  sente.style.width = `${share}%`;
  return h(
    'div',
    {
      class: 'live-bar',
      role: 'meter',
      'aria-label': "Sente's winning chances",
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': share,
    },
    sente,
  );
}

/** The line in the player's notation, played on from the position shown (so 同 reads right). */
function lineText(state: LiveEngineState, pv: readonly string[]): string {
  const all = notatedMoves(state.sfen, 'default', [...state.moves, ...pv], moveNotation());
  const shown = all.slice(state.moves.length);
  return shown.length === pv.length ? shown.join(' ') : pv.join(' ');
}
