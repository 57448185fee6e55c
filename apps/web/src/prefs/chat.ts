/**
 * Whether this browser hides the opponent's chat lines, kept in localStorage so it holds across
 * games and visits (on for every opponent once chosen, as lishogi's chat toggle is).
 */
const KEY = 'shogi.chatMuteOpponent';

export function opponentMuted(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function setOpponentMuted(muted: boolean): void {
  try {
    if (muted) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // a browser that keeps nothing still mutes for this page
  }
}
