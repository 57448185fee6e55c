// The command line, spawned as an arbiter runs it: `npx shogi-pairings` from the repository root.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTrf, trfAfterRound } from '../src/index.js';
import { eventText } from './event.js';
import { FIXTURES } from './fixtures.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'shogi-pairings-'));

function pairings(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('npx', ['--no-install', 'shogi-pairings', ...args], { cwd: root, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// case03 cut after round 3; bbpPairings' round 4 of that event, white first, the bye as "12 0".
const case03 = parseTrf(readFileSync(`${FIXTURES}case03.trf`, 'utf8'));
const ROUND_4 = ['1 3', '5 4', '7 6', '13 2', '11 10', '15 14', '8 9', '12 0'];

describe('shogi-pairings --dutch', { timeout: 60_000 }, () => {
  it('-p writes the next round to stdout: the number of pairs, then "white black", the bye as "N 0"', () => {
    const input = write('case03-r3.trf', trfAfterRound(case03, 3, 7));
    const r = pairings('--dutch', input, '-p');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('8');
    expect(lines.slice(1).sort()).toEqual([...ROUND_4].sort());
    expect(lines.at(-1)).toBe('12 0');
  });

  it('-p output writes the same lines to a file beside the input', () => {
    const input = write('case03-r3b.trf', trfAfterRound(case03, 3, 7));
    const r = pairings('--dutch', input, '-p', 'round4.txt');
    expect(r.status).toBe(0);
    const lines = readFileSync(join(dir, 'round4.txt'), 'utf8').trim().split('\n');
    expect(lines.slice(1).sort()).toEqual([...ROUND_4].sort());
  });

  it('-c replays every round of a finished file and says how many match', () => {
    const r = pairings('--dutch', `${FIXTURES}case03.trf`, '-c');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('7 of 7 rounds match.\n');
  });

  it('-c names each round that differs', () => {
    // Swap the colours of one game of round 2: the file no longer holds the engine's round.
    const lines = readFileSync(`${FIXTURES}case03.trf`, 'utf8').split('\r');
    const swap = (line: string): string => {
      const cell = line.slice(101, 109);
      return (
        line.slice(0, 101) + cell.replace(/ w /, ' x ').replace(/ b /, ' w ').replace(/ x /, ' b ') + line.slice(109)
      );
    };
    const first = lines.findIndex((l) => l.startsWith('001    1'));
    const opponent = Number(lines[first]!.slice(101, 105));
    const second = lines.findIndex((l) => l.startsWith(`001 ${String(opponent).padStart(4, ' ')}`));
    lines[first] = swap(lines[first]!);
    lines[second] = swap(lines[second]!);
    const r = pairings('--dutch', write('swapped.trf', lines.join('\r')), '-c');
    expect(r.status).toBe(0);
    // Round 1 is untouched; round 2 no longer holds the engine's pairing (and the changed
    // colour histories may change later rounds too).
    expect(r.stdout).toMatch(/^Round 2 differs\.\n {2}file: {3}.*\n {2}engine: .*\n/);
    expect(r.stdout).not.toContain('7 of 7');
  });

  it('exits 1 when no pairing satisfies the absolute criteria', () => {
    const input = write('stuck.trf', eventText(['2 w 1', '1 b 0'], { rounds: 3 }));
    const r = pairings('--dutch', input, '-p');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('No valid pairing exists');
  });

  it('exits 3 on a malformed file, on bad arguments and without the first colour', () => {
    expect(pairings('--dutch', write('bad.trf', '001    1      Short'), '-p').status).toBe(3);
    expect(pairings('--swiss', write('ok.trf', eventText(['', ''], { rounds: 3 })), '-p').status).toBe(3);
    const noColour = pairings('--dutch', write('new.trf', eventText(['', ''], { rounds: 3 })), '-p');
    expect(noColour.status).toBe(3);
    expect(noColour.stderr).toContain('XXC');
  });

  it('exits 5 when the input cannot be read', () => {
    expect(pairings('--dutch', join(dir, 'missing.trf'), '-p').status).toBe(5);
  });
});
