/**
 * The game's sounds, made with WebAudio rather than shipped as files: a wooden click for a
 * move, a heavier double knock for a capture, and short beeps for the byoyomi countdown. The
 * sound setting (settings-store.ts) silences them all.
 */
import { settings } from './settings-store.js';

export type SoundName = 'move' | 'capture' | 'beep' | 'last-beep';

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  // a page's audio may start suspended until the user has interacted with it
  if (context.state === 'suspended') void context.resume().catch(() => {});
  return context;
}

/** One tone: a sine at `freq` that falls to `endFreq`, with a fast attack and a decay. */
function tone(ctx: AudioContext, at: number, freq: number, endFreq: number, length: number, volume: number): void {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'triangle';
  osc.frequency.setValueAtTime(freq, at);
  osc.frequency.exponentialRampToValueAtTime(endFreq, at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.004);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

export function playSound(name: SoundName): void {
  if (!settings().sound) return;
  const ctx = audio();
  if (!ctx) return;
  const now = ctx.currentTime;
  switch (name) {
    case 'move':
      tone(ctx, now, 900, 300, 0.07, 0.5);
      break;
    case 'capture':
      tone(ctx, now, 600, 160, 0.09, 0.7);
      tone(ctx, now + 0.07, 700, 200, 0.08, 0.5);
      break;
    case 'beep':
      tone(ctx, now, 880, 880, 0.09, 0.25);
      break;
    case 'last-beep':
      tone(ctx, now, 1320, 1320, 0.18, 0.3);
      break;
  }
}
