// The live standings of an arena and its players' waits, through one gateway process (its own
// director, `TOURNAMENT_TICK_MS` 1 s as deployed), each beside a reference from the same run:
//
// 1. Fan-out: K sockets on `GET /api/tournament/:id/ws`; games of the arena end one after another
//    (a resignation); for each scored game, each socket's first frame carrying the stream
//    version of its `GameScored` or later, measured from that event's `recorded_at` (the append's
//    transaction; PostgreSQL on the same machine, the same clock). Reference: the same K sockets'
//    fan-out of a game's move, on `GET /api/games/:id/watch` of one of the arena's games, the move
//    published on the game's Redis channel as a worker publishes it (bench/fanout's method),
//    measured from its publication. Also printed: from the resignation's request to the frame
//    (the director's tick included). Target: p99 <= 250 ms at K = 10,000.
// 2. Waits: for each player of an ended game, from the game's end (its `GameEnded`) to their next
//    pairing (`PlayersPaired.at`), beside lichess's threshold (`waitSeconds`, from the clock) + 1 s.

import { performance } from 'node:perf_hooks';
import { gameChannel, validateQueueCount } from '@shogi/pipeline';
import { closeClient, publish, redisClient } from '@shogi/redis';
import { createTestDatabase } from '@shogi/store/testing';
import { waitSeconds } from '@shogi/tournament';
import { sql } from 'kysely';
import WebSocket from 'ws';
import { connectSpectators, Histogram } from '../fanout/clients.js';
import { cpuSeconds, startServer } from '../fanout/servers.js';

interface Guest {
  readonly id: string;
  readonly token: string;
}
interface GameLine {
  readonly id: string;
  readonly players: { sente: { id: string }; gote: { id: string } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nowMs = () => performance.timeOrigin + performance.now();
const VERSION_KEY = Buffer.from('"version":');
const CLOCK = { kind: 'fischer', mainSeconds: 15, incrementSeconds: 0 } as const;

/** The `version` of a `tournament` frame, read without parsing the whole frame. */
function versionOf(data: Buffer): number {
  const at = data.indexOf(VERSION_KEY);
  if (at < 0) return Number.NaN;
  let end = at + VERSION_KEY.length;
  while (end < data.length && (data[end] as number) >= 48 && (data[end] as number) <= 57) end++;
  return Number(data.toString('latin1', at + VERSION_KEY.length, end));
}

/** K tournament sockets, each keeping (version, arrival) of every frame. */
async function watchTournament(url: string, count: number, parallel = 200) {
  const sockets: WebSocket[] = [];
  const frames: [number, number][][] = [];
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url, { localAddress: `127.0.0.${2 + (i % 250)}`, perMessageDeflate: false });
      const mine: [number, number][] = [];
      frames.push(mine);
      sockets.push(ws);
      ws.on('message', (data: Buffer) => mine.push([versionOf(data), nowMs()]));
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
  for (let i = 0; i < count; i += parallel) {
    const batch: Promise<void>[] = [];
    for (let j = i; j < Math.min(count, i + parallel); j++) batch.push(open(j));
    await Promise.all(batch);
  }
  return {
    frames,
    close: () => {
      for (const ws of sockets) ws.terminate();
    },
  };
}

const ms = (h: Histogram) => `p50 ${h.percentile(0.5).toFixed(1)} ms, p99 ${h.percentile(0.99).toFixed(1)} ms`;

export async function benchLive(sockets: number, games: number): Promise<void> {
  const t = await createTestDatabase();
  const prefix = `tlive${process.pid}:`;
  const server = await startServer('gateway', {
    databaseUrl: t.url,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    channelPrefix: prefix,
  });
  const base = `http://127.0.0.1:${server.port}`;
  const publisher = redisClient({ redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }, 'bench-live');
  const post = async (path: string, token: string, body: unknown = {}) => {
    const r = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<Record<string, unknown>>;
  };
  try {
    // an arena of 2G players at 15 s + 0, starting in a moment; everyone joins
    const guests: Guest[] = [];
    for (let i = 0; i < 2 * games; i++) {
      const r = await fetch(`${base}/api/players`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `w${i}` }),
      });
      guests.push((await r.json()) as Guest);
    }
    const host = guests[0] as Guest;
    const { id } = (await post('/api/tournament', host.token, {
      name: 'Live bench',
      clockTime: 0.25,
      clockIncrement: 0,
      minutes: 20,
      startDate: Date.now() + 3000,
      rated: false,
    })) as { id: string };
    for (const g of guests) await post(`/api/tournament/${id}/join`, g.token);
    // the first wave: every game made
    let paired: GameLine[] = [];
    for (let i = 0; paired.length < games; i++) {
      if (i > 600) throw new Error('the first wave did not come');
      await sleep(100);
      const text = await (await fetch(`${base}/api/tournament/${id}/games`)).text();
      paired = text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as GameLine);
    }
    for (const g of paired) while ((await fetch(`${base}/api/games/${g.id}`)).status !== 200) await sleep(50);
    const tokenOf = new Map(guests.map((g) => [g.id, g.token]));
    console.log(`  arena of ${guests.length} players, ${paired.length} games paired; ${sockets} sockets`);

    // 1a. the reference: a move's fan-out to K watchers of one of the arena's games
    const watched = paired[0] as GameLine;
    const view = (await (await fetch(`${base}/api/games/${watched.id}`)).json()) as { lastSeq: number };
    const watchers = await connectSpectators(() => server.watchUrl(watched.id), sockets, 1);
    await sleep(1000);
    watchers.histogram.reset();
    const shares = validateQueueCount(false);
    const cpuRef0 = cpuSeconds(server.pid);
    const MOVES = 5;
    for (let m = 0; m < MOVES; m++) {
      const seq = view.lastSeq + 1 + 2 * m;
      const at = new Date().toISOString();
      const message =
        `[{"gameId":"${watched.id}","seq":${seq},"type":"MoveSubmitted","data":{"playerId":"${watched.players.sente.id}","color":"sente","usi":"7g7f","ply":0,"receivedAt":"${at}"},"recordedAt":"${at}"},` +
        `{"gameId":"${watched.id}","seq":${seq + 1},"type":"MoveAccepted","data":{"submittedSeq":${seq},"ply":1,"usi":"7g7f","sfen":"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2","check":false,"t":${performance.now()}},"recordedAt":"${at}"}]`;
      await publish(publisher, gameChannel(watched.id, prefix, shares), message);
      await sleep(1500);
    }
    const cpuRef = cpuSeconds(server.pid) - cpuRef0;
    const reference = {
      line: ms(watchers.histogram),
      p99: watchers.histogram.percentile(0.99),
      received: watchers.received,
    };
    await watchers.close();

    // 1b. the standings' fan-out: games end one after another, each scored by the director
    const live = await watchTournament(`ws://127.0.0.1:${server.port}/api/tournament/${id}/ws`, sockets);
    await sleep(1000);
    const cpu0 = cpuSeconds(server.pid);
    const resignedAt = new Map<string, number>();
    const ending = paired.slice(1);
    for (const g of ending) {
      resignedAt.set(g.id, nowMs());
      await post(`/api/games/${g.id}/resign`, tokenOf.get(g.players.sente.id) as string);
      await sleep(2000);
    }
    // the waits: long enough for the last of them to be paired again
    await sleep((waitSeconds(CLOCK) + 4) * 1000);
    const cpu = cpuSeconds(server.pid) - cpu0;
    live.close();

    const scored = await sql<{ seq: number; recorded_at: Date; game_id: string }>`
      select seq, recorded_at, payload->>'gameId' as game_id from tournament_events
      where tournament_id = ${id} and type = 'GameScored' order by seq`.execute(t.db);
    const fanout = new Histogram();
    const fromEnd = new Histogram();
    let missed = 0;
    for (const s of scored.rows) {
      const from = s.recorded_at.getTime();
      const resigned = resignedAt.get(s.game_id);
      for (const frames of live.frames) {
        const arrival = frames.find(([v]) => v >= s.seq)?.[1];
        if (arrival === undefined) {
          missed++;
          continue;
        }
        fanout.add(arrival - from);
        if (resigned !== undefined) fromEnd.add(arrival - resigned);
      }
    }
    console.log(
      `  a move to ${sockets} game watchers (reference):   ${reference.line} (${reference.received} frames, ${MOVES} moves; gateway CPU ${cpuRef.toFixed(1)} s)`,
    );
    console.log(
      `  standings to ${sockets} tournament sockets:       ${ms(fanout)} from GameScored's append ` +
        `(${scored.rows.length} games scored, ${fanout.total} frames, ${missed} missed; gateway CPU ${cpu.toFixed(1)} s); ` +
        `p99 ${(fanout.percentile(0.99) / reference.p99).toFixed(1)}x the reference's; target p99 <= 250 ms`,
    );
    console.log(`  the same, from the resignation's request (the director's tick included): ${ms(fromEnd)}`);

    // 2. each ended game's players: the game's end to their next pairing
    const ended = await sql<{ game_id: string; at: Date }>`
      select game_id, recorded_at as at from game_events
      where type = 'GameEnded' and game_id in (${sql.join(ending.map((g) => g.id))})`.execute(t.db);
    const waves = await sql<{ at: string; pairings: { sente: string; gote: string }[] }>`
      select payload->>'at' as at, payload->'pairings' as pairings from tournament_events
      where tournament_id = ${id} and type = 'PlayersPaired' order by seq`.execute(t.db);
    const waits: number[] = [];
    let unpaired = 0;
    for (const e of ended.rows) {
      const g = ending.find((x) => x.id === e.game_id) as GameLine;
      for (const player of [g.players.sente.id, g.players.gote.id]) {
        const next = waves.rows.find(
          (w) => Date.parse(w.at) > e.at.getTime() && w.pairings.some((p) => p.sente === player || p.gote === player),
        );
        if (next === undefined) unpaired++;
        else waits.push((Date.parse(next.at) - e.at.getTime()) / 1000);
      }
    }
    waits.sort((a, b) => a - b);
    const threshold = waitSeconds(CLOCK);
    console.log(
      `  waits from a game's end to the next pairing (${waits.length} players, ${unpaired} not paired again): ` +
        `median ${(waits[Math.floor(waits.length / 2)] ?? Number.NaN).toFixed(1)} s, max ${(waits.at(-1) ?? Number.NaN).toFixed(1)} s; ` +
        `lichess's threshold ${threshold} s + 1 s = ${threshold + 1} s (met: ${waits.every((w) => w <= threshold + 1) && unpaired === 0 ? 'yes' : 'NO'})`,
    );
  } finally {
    await closeClient(publisher);
    await server.stop();
    await t.drop();
  }
}
