/**
 * Whether the page lost focus since the player's previous move, sent with the next one as
 * `blur` (lichess's client sends `b: 1` with its move so): switching to another window or tab
 * between moves is one of fair play's signals ([docs/fair-play.md]).
 */
export interface FocusWatch {
  /** true when the page lost focus since the last call; the next move starts afresh */
  take(): boolean;
  stop(): void;
}

export function watchFocus(win: Window = window): FocusWatch {
  let lost = false;
  const onBlur = () => {
    lost = true;
  };
  const onVisibility = () => {
    if (win.document.visibilityState === 'hidden') lost = true;
  };
  win.addEventListener('blur', onBlur);
  win.document.addEventListener('visibilitychange', onVisibility);
  return {
    take() {
      const was = lost;
      lost = false;
      return was;
    },
    stop() {
      win.removeEventListener('blur', onBlur);
      win.document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
