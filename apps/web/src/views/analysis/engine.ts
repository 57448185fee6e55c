/**
 * The server's engine analysis of a game, as the analysis board follows it: read once
 * (`GET /api/games/:id/analysis`), asked for (`POST`, as this browser's player), its progress
 * from the watch socket's `analysis` frames, and read again while it runs (a frame a socket
 * misses is not sent again) until it is done or failed.
 */
import type { AnalysisResponse, WatchAnalysis } from '@shogi/protocol';
import { ApiFailure, api } from '../../api.js';
import { watchGame } from '../../net/watch.js';
import { withIdentity } from '../../session.js';
import { failureSentence } from '../../words/errors.js';

/** How often a running analysis is read again (ms). */
const POLL_MS = 2_000;

export interface EngineState {
  analysis: AnalysisResponse | null;
  /** the latest progress frame, while it runs */
  progress: WatchAnalysis | null;
  /** a refusal or an error to show */
  problem: string;
  /** the first read has answered */
  loaded: boolean;
}

export interface EngineFollower {
  readonly state: EngineState;
  request(): Promise<void>;
  close(): void;
}

const running = (a: AnalysisResponse | null) => a !== null && (a.status === 'queued' || a.status === 'running');

export function followEngine(gameId: string, changed: () => void): EngineFollower {
  const path = `/api/games/${encodeURIComponent(gameId)}/analysis`;
  const state: EngineState = { analysis: null, progress: null, problem: '', loaded: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const settle = (analysis: AnalysisResponse | null) => {
    state.analysis = analysis;
    state.loaded = true;
    if (!running(analysis)) state.progress = null;
    changed();
    clearTimeout(timer);
    if (running(analysis) && !closed) timer = setTimeout(read, POLL_MS);
  };
  const read = () =>
    api.get<AnalysisResponse>(path).then(settle, (err: unknown) => {
      if (err instanceof ApiFailure && err.status === 404) settle(null);
      else {
        state.problem = failureSentence(err);
        changed();
      }
    });
  const socket = watchGame(gameId, {
    snapshot() {},
    events() {},
    spectators() {},
    status() {},
    error() {},
    analysis(news) {
      state.progress = news;
      changed();
      if (news.status === 'done' || news.status === 'failed') void read();
    },
  });
  void read();
  return {
    state,
    async request() {
      state.problem = '';
      try {
        settle(await withIdentity((who) => api.post<AnalysisResponse>(path, {}, who.token)));
      } catch (err) {
        state.problem = failureSentence(err);
        changed();
      }
    },
    close() {
      closed = true;
      clearTimeout(timer);
      socket.close();
    },
  };
}
