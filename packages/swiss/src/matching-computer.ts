// The Dutch system asks for a maximum-weight matching again and again, each time after changing
// the weights at a few vertices. This keeps the previous matching and its dual solution and
// repairs them: the blossoms holding a changed vertex are expanded down to it (their duals
// folded into their vertices; the blossoms beside it stay whole, as bbpPairings' matching
// computer keeps them), a changed vertex's dual is raised where one of its edges needs it, and
// its pair is undone only if that pair's edge is no longer tight; the search then resumes from
// the free vertices whose duals are still positive. The search is the blossom algorithm of
// matching.ts, generalised so that free vertices need not share one dual value: a tree stops
// growing when one of its vertices' duals reaches zero (that vertex is left free), and a tree
// that reaches a free vertex of zero dual augments to it. Weights are taken as bigint but
// stored, with the duals, as fixed-width limbs (limbs.ts): the search allocates nothing per
// slack.

import {
  addInto,
  capacityBits,
  compare,
  copyInto,
  halveInto,
  LIMB_BASE,
  limbsFor,
  readBigint,
  sign,
  writeBigint,
  zeroAt,
} from './limbs.js';

const BASE = LIMB_BASE;
const INVERSE_BASE = 1 / LIMB_BASE;

/** Edge k of the complete graph joins smaller(k) and larger(k): k = j(j-1)/2 + i for i < j. */
const pairIndex = (a: number, b: number): number => (a < b ? (b * (b - 1)) / 2 + a : (a * (a - 1)) / 2 + b);

export class MatchingComputer {
  readonly size: number;
  private readonly n: number;
  /** Each edge's weight as given. */
  private readonly weights: bigint[];
  /** Limbs per number (limbs.ts): grows with the heaviest weight set. */
  private L = 1;
  private weightLimit = 0n;
  /** Twice each edge's weight in limbs (slack = dual + dual - 2w is what the search reads). */
  private wl: Float64Array;
  private readonly nonzero: Uint8Array;
  private readonly endpoint: Int32Array;
  private readonly fixed: Uint8Array;
  private readonly changed: Uint8Array;
  private changedList: number[] = [];

  private readonly mate: Int32Array;
  private readonly label: Int32Array;
  private readonly labelend: Int32Array;
  private readonly inblossom: Int32Array;
  private readonly blossomparent: Int32Array;
  private readonly blossomchilds: (number[] | null)[];
  private readonly blossombase: Int32Array;
  private readonly blossomendps: (number[] | null)[];
  private readonly bestedge: Int32Array;
  private readonly blossombestedges: (number[] | null)[];
  private readonly unusedblossoms: number[] = [];
  private readonly leafStack: number[] = [];
  /** Duals in limbs, L per vertex or blossom. */
  private dual: Float64Array;
  private s1: Float64Array;
  /** addBlossom's scratch: per other S-blossom, its least-slack edge. */
  private readonly bestTo: Int32Array;
  private s2: Float64Array;
  private delta: Float64Array;
  private readonly allowedge: Uint8Array;
  private allowed: number[] = [];
  private queue: number[] = [];
  private neighbourStart: Int32Array;
  /** The neighbour lists follow the non-zero edges between unsettled vertices. */
  private neighboursStale = true;
  /** The edges the neighbour lists hold: an edge dropped since (weight zero, or a settled end)
   * stays listed and is skipped where the lists are read, so only a new edge asks for a rebuild. */
  private readonly listed: Uint8Array;
  private neighbend: Int32Array;

  constructor(size: number) {
    const n = size;
    this.size = size;
    this.n = n;
    const pairs = (n * (n - 1)) / 2;
    this.weights = new Array<bigint>(pairs).fill(0n);
    this.nonzero = new Uint8Array(pairs);
    this.wl = new Float64Array(0);
    this.dual = new Float64Array(0);
    this.s1 = new Float64Array(0);
    this.bestTo = new Int32Array(2 * n).fill(-1);
    this.s2 = new Float64Array(0);
    this.delta = new Float64Array(0);
    this.resize(1);
    this.endpoint = new Int32Array(2 * pairs);
    for (let j = 1, k = 0; j < n; j++) {
      for (let i = 0; i < j; i++, k++) {
        this.endpoint[2 * k] = i;
        this.endpoint[2 * k + 1] = j;
      }
    }
    this.fixed = new Uint8Array(n);
    this.changed = new Uint8Array(n);
    for (let v = 0; v < n; v++) this.markChanged(v);
    this.mate = new Int32Array(n).fill(-1);
    this.label = new Int32Array(2 * n);
    this.labelend = new Int32Array(2 * n).fill(-1);
    this.inblossom = new Int32Array(n);
    for (let v = 0; v < n; v++) this.inblossom[v] = v;
    this.blossomparent = new Int32Array(2 * n).fill(-1);
    this.blossomchilds = new Array(2 * n).fill(null);
    this.blossombase = new Int32Array(2 * n).fill(-1);
    for (let v = 0; v < n; v++) this.blossombase[v] = v;
    this.blossomendps = new Array(2 * n).fill(null);
    this.bestedge = new Int32Array(2 * n).fill(-1);
    this.blossombestedges = new Array(2 * n).fill(null);
    for (let b = 2 * n - 1; b >= n; b--) this.unusedblossoms.push(b);
    this.allowedge = new Uint8Array(pairs);
    this.listed = new Uint8Array(pairs);
    this.neighbourStart = new Int32Array(n + 1);
    this.neighbend = new Int32Array(0);
  }

  private markChanged(v: number): void {
    if (this.changed[v]) return;
    this.changed[v] = 1;
    this.changedList.push(v);
  }

  /** Re-lays weights and duals out in `limbs` limbs (more than before). */
  private resize(limbs: number): void {
    const old = this.L;
    const n = this.n;
    const pairs = this.weights.length;
    const wl = new Float64Array(pairs * limbs);
    const dual = new Float64Array(2 * n * limbs);
    if (this.wl.length > 0) {
      for (let k = 0; k < pairs; k++) {
        if (this.nonzero[k]) writeBigint(wl, k * limbs, limbs, this.weights[k]! << 1n);
      }
      for (let b = 0; b < 2 * n; b++) writeBigint(dual, b * limbs, limbs, readBigint(this.dual, b * old, old));
    }
    this.L = limbs;
    this.wl = wl;
    this.dual = dual;
    this.s1 = new Float64Array(limbs);
    this.s2 = new Float64Array(limbs);
    this.delta = new Float64Array(limbs);
    this.weightLimit = 1n << BigInt(capacityBits(limbs) - 8);
  }

  private storeWeight(k: number, weight: bigint): void {
    this.weights[k] = weight;
    const nonzero = weight > 0n ? 1 : 0;
    if (this.nonzero[k] !== nonzero) {
      this.nonzero[k] = nonzero;
      if (nonzero && !this.listed[k]) this.neighboursStale = true;
    }
    if (weight >= this.weightLimit) this.resize(limbsFor(weight.toString(2).length + 1));
    writeBigint(this.wl, k * this.L, this.L, weight << 1n);
  }

  setEdgeWeight(a: number, b: number, weight: bigint): void {
    if (this.fixed[a] || this.fixed[b]) return;
    const k = pairIndex(a, b);
    if (this.weights[k] === weight) return;
    this.storeWeight(k, weight);
    this.markChanged(a);
  }

  edgeWeight(a: number, b: number): bigint {
    return this.weights[pairIndex(a, b)]!;
  }

  /** Settles the pair a-b for good: every other edge at a or b is dropped, and both leave the graph. */
  fixPair(a: number, b: number): void {
    for (let u = 0; u < this.n; u++) {
      if (u !== a && u !== b) {
        if (this.nonzero[pairIndex(a, u)]) this.storeWeight(pairIndex(a, u), 0n);
        if (this.nonzero[pairIndex(b, u)]) this.storeWeight(pairIndex(b, u), 0n);
      }
    }
    this.storeWeight(pairIndex(a, b), 1n);
    this.markChanged(a);
    this.markChanged(b);
    this.fixed[a] = 1;
    this.fixed[b] = 1;
  }

  /** Whether the listed edge end p is still an edge of the graph (see `listed`). */
  private live(p: number): boolean {
    return this.nonzero[p >> 1] === 1 && this.fixed[this.endpoint[p]!] === 0;
  }

  /** out = the slack of edge k. */
  private slackInto(k: number, out: Float64Array): void {
    const L = this.L;
    const d = this.dual;
    const w = this.wl;
    const wo = k * L;
    const uo = this.endpoint[2 * k]! * L;
    const vo = this.endpoint[2 * k + 1]! * L;
    let carry = 0;
    for (let i = L - 1; i > 0; i--) {
      const x = d[uo + i]! + d[vo + i]! - w[wo + i]! + carry;
      const c = Math.floor(x * INVERSE_BASE);
      out[i] = x - c * BASE;
      carry = c;
    }
    out[0] = d[uo]! + d[vo]! - w[wo]! + carry;
  }

  // The comparisons below read the limbs from the top without normalising: each step's digit
  // (dual + dual - 2w, or a difference of two such) lies within (-3B, 3B), so once the running
  // difference reaches 4 in the current limb's unit the limbs below cannot change its sign.
  // Most slacks are decided by their first limb.

  /** The sign of slack(k) minus slack(j). */
  private slackCompare(k: number, j: number): number {
    const L = this.L;
    const d = this.dual;
    const w = this.wl;
    const e = this.endpoint;
    const ko = k * L;
    const ku = e[2 * k]! * L;
    const kv = e[2 * k + 1]! * L;
    const jo = j * L;
    const ju = e[2 * j]! * L;
    const jv = e[2 * j + 1]! * L;
    let r = 0;
    for (let i = 0; i < L; i++) {
      r = r * BASE + (d[ku + i]! + d[kv + i]! - w[ko + i]!) - (d[ju + i]! + d[jv + i]! - w[jo + i]!);
      if (r >= 4) return 1;
      if (r <= -4) return -1;
    }
    return r > 0 ? 1 : r < 0 ? -1 : 0;
  }

  /** The sign of slack(k) minus the normalised number at a[ao]. */
  private slackCompareTo(k: number, a: Float64Array, ao: number): number {
    const L = this.L;
    const d = this.dual;
    const w = this.wl;
    const e = this.endpoint;
    const ko = k * L;
    const ku = e[2 * k]! * L;
    const kv = e[2 * k + 1]! * L;
    let r = 0;
    for (let i = 0; i < L; i++) {
      r = r * BASE + (d[ku + i]! + d[kv + i]! - w[ko + i]!) - a[ao + i]!;
      if (r >= 4) return 1;
      if (r <= -4) return -1;
    }
    return r > 0 ? 1 : r < 0 ? -1 : 0;
  }

  private slackLess(k: number, j: number): boolean {
    return this.slackCompare(k, j) < 0;
  }

  private slackSign(k: number): number {
    const L = this.L;
    const d = this.dual;
    const w = this.wl;
    const e = this.endpoint;
    const ko = k * L;
    const ku = e[2 * k]! * L;
    const kv = e[2 * k + 1]! * L;
    let r = 0;
    for (let i = 0; i < L; i++) {
      r = r * BASE + (d[ku + i]! + d[kv + i]! - w[ko + i]!);
      if (r >= 4) return 1;
      if (r <= -4) return -1;
    }
    return r > 0 ? 1 : r < 0 ? -1 : 0;
  }

  private dualSign(v: number): number {
    return sign(this.dual, v * this.L, this.L);
  }

  /** The vertices of blossom b, appended to out in the order of its children, depth first. */
  private blossomLeaves(b: number, out: number[]): number[] {
    if (b < this.n) {
      out.push(b);
      return out;
    }
    const stack = this.leafStack;
    const base = stack.length;
    stack.push(b);
    while (stack.length > base) {
      const x = stack.pop()!;
      if (x < this.n) {
        out.push(x);
        continue;
      }
      const childs = this.blossomchilds[x]!;
      for (let i = childs.length - 1; i >= 0; i--) stack.push(childs[i]!);
    }
    return out;
  }

  /**
   * Expands the blossoms that hold x, from the outermost down to x, so that x stands alone;
   * the blossoms beside x inside them stay whole. Each expanded blossom's dual moves onto its
   * vertices: the edges between its children stay tight, only its base's outer edge gains
   * slack (its base is listed in `bases` to be checked).
   */
  private expandAround(x: number, bases: number[]): void {
    const L = this.L;
    const chain: number[] = [];
    for (let b = this.blossomparent[x]!; b !== -1; b = this.blossomparent[b]!) chain.push(b);
    for (let i = chain.length - 1; i >= 0; i--) {
      const b = chain[i]!;
      bases.push(this.blossombase[b]!);
      if (this.dualSign(b) !== 0) {
        for (const leaf of this.blossomLeaves(b, [])) {
          addInto(this.dual, leaf * L, this.dual, leaf * L, this.dual, b * L, 1, L);
        }
      }
      for (const child of this.blossomchilds[b]!) {
        this.blossomparent[child] = -1;
        if (child < this.n) this.inblossom[child] = child;
        else for (const leaf of this.blossomLeaves(child, [])) this.inblossom[leaf] = child;
      }
      this.blossomchilds[b] = null;
      this.blossomendps[b] = null;
      this.blossombase[b] = -1;
      this.blossombestedges[b] = null;
      this.bestedge[b] = -1;
      zeroAt(this.dual, b * L, L);
      this.label[b] = 0;
      this.unusedblossoms.push(b);
    }
  }

  private unmatch(v: number): void {
    const p = this.mate[v]!;
    if (p < 0) return;
    this.mate[this.endpoint[p]!] = -1;
    this.mate[v] = -1;
  }

  private rebuildNeighbours(): void {
    const n = this.n;
    const { fixed, nonzero } = this;
    const degree = new Int32Array(n);
    let count = 0;
    // Edge k = j(j-1)/2 + i: rows of the larger end j, in the order of k.
    for (let j = 1, k = 0; j < n; k += j, j++) {
      if (fixed[j]) continue;
      for (let i = 0; i < j; i++) {
        if (nonzero[k + i] && !fixed[i]) {
          degree[i]!++;
          degree[j]!++;
          count++;
        }
      }
    }
    const start = new Int32Array(n + 1);
    for (let v = 0; v < n; v++) start[v + 1] = start[v]! + degree[v]!;
    const neighbend = new Int32Array(2 * count);
    const fill = start.slice(0, n);
    const listed = this.listed;
    listed.fill(0);
    for (let j = 1, k = 0; j < n; k += j, j++) {
      if (fixed[j]) continue;
      for (let i = 0; i < j; i++) {
        if (nonzero[k + i] && !fixed[i]) {
          listed[k + i] = 1;
          neighbend[fill[i]!++] = 2 * (k + i) + 1;
          neighbend[fill[j]!++] = 2 * (k + i);
        }
      }
    }
    this.neighbourStart = start;
    this.neighbend = neighbend;
    this.neighboursStale = false;
  }

  /** Makes the last solution a valid starting point for the changed weights. */
  private repair(): void {
    const bases: number[] = [];
    for (const x of this.changedList) this.expandAround(x, bases);
    const freed: number[] = [];
    for (const x of this.changedList) {
      const p = this.mate[x]!;
      if (p < 0) continue;
      // A changed vertex keeps its partner for now; the pair is undone below if its edge is
      // no longer tight.
      if (!this.fixed[x] && this.nonzero[p >> 1] && !this.fixed[this.endpoint[p]!]) continue;
      freed.push(this.endpoint[p]!);
      this.unmatch(x);
    }
    // An expanded blossom's dual now sits on its vertices: its base's matched edge, if it lost
    // its tightness, is unmatched.
    for (const v of bases) {
      const p = this.mate[v]!;
      if (p >= 0 && this.slackSign(p >> 1) !== 0) this.unmatch(v);
    }
    const L = this.L;
    const need = this.s2;
    for (const x of this.changedList) {
      if (this.fixed[x]) continue;
      const best = this.s1;
      copyInto(best, 0, this.dual, x * L, L);
      for (let q = this.neighbourStart[x]!; q < this.neighbourStart[x + 1]!; q++) {
        const p = this.neighbend[q]!;
        if (!this.live(p)) continue;
        addInto(need, 0, this.wl, (p >> 1) * L, this.dual, this.endpoint[p]! * L, -1, L);
        if (compare(need, 0, best, 0, L) > 0) copyInto(best, 0, need, 0, L);
      }
      copyInto(this.dual, x * L, best, 0, L);
    }
    // A changed vertex kept matched stays so if its edge is still tight.
    for (const x of this.changedList) {
      const p = this.mate[x]!;
      if (p >= 0 && !this.fixed[x] && this.slackSign(p >> 1) !== 0) {
        freed.push(this.endpoint[p]!);
        this.unmatch(x);
      }
    }
    // Changed vertices left free take a free neighbour over a tight edge: fewer trees to grow.
    for (const x of this.changedList) {
      if (this.fixed[x] || this.mate[x] !== -1 || this.dualSign(x) === 0) continue;
      for (let q = this.neighbourStart[x]!; q < this.neighbourStart[x + 1]!; q++) {
        const p = this.neighbend[q]!;
        if (!this.live(p)) continue;
        const y = this.endpoint[p]!;
        if (this.mate[y] !== -1 || this.inblossom[y] !== y || this.slackSign(p >> 1) !== 0) continue;
        this.mate[x] = p;
        this.mate[y] = p ^ 1;
        break;
      }
    }
    // The partners they left, free now, pair up again over tight edges where they can: when a
    // settled pair only exchanged partners with another pair, no search is needed at all.
    for (let i = 0; i < freed.length; i++) {
      const u = freed[i]!;
      if (!this.isFreeBase(u)) continue;
      for (let j = i + 1; j < freed.length; j++) {
        const v = freed[j]!;
        if (v === u || !this.isFreeBase(v)) continue;
        const k = pairIndex(u, v);
        if (!this.nonzero[k] || this.slackSign(k) !== 0) continue;
        const uIsFirst = this.endpoint[2 * k] === u;
        this.mate[u] = uIsFirst ? 2 * k + 1 : 2 * k;
        this.mate[v] = uIsFirst ? 2 * k : 2 * k + 1;
        break;
      }
    }
    for (const x of this.changedList) {
      this.changed[x] = 0;
      if (this.fixed[x] && this.mate[x] === -1) {
        // The settled pair: matched to each other, outside the graph from now on.
        const other = this.fixedPartner(x);
        const k = pairIndex(x, other);
        const xIsFirst = this.endpoint[2 * k] === x;
        this.mate[x] = xIsFirst ? 2 * k + 1 : 2 * k;
        this.mate[other] = xIsFirst ? 2 * k : 2 * k + 1;
      }
    }
    this.changedList = [];
  }

  /** Whether v is unmatched, in the graph, and the base of its outermost blossom. */
  private isFreeBase(v: number): boolean {
    return !this.fixed[v] && !this.changed[v] && this.mate[v] === -1 && this.blossombase[this.inblossom[v]!] === v;
  }

  private fixedPartner(x: number): number {
    for (let u = 0; u < this.n; u++) if (u !== x && this.nonzero[pairIndex(x, u)]) return u;
    throw new Error('a settled vertex without its pair');
  }

  /** Each vertex's mate in a maximum-weight matching; an unmatched vertex is its own mate. */
  computeMatching(): number[] {
    if (this.changedList.length > 0) {
      if (this.neighboursStale) this.rebuildNeighbours();
      this.repair();
    }
    this.solve();
    const result = new Array<number>(this.n);
    for (let v = 0; v < this.n; v++) {
      const p = this.mate[v]!;
      result[v] = p < 0 ? v : this.endpoint[p]!;
    }
    return result;
  }

  private assignLabel(w0: number, t0: number, p0: number): void {
    let w = w0;
    let t = t0;
    let p = p0;
    for (;;) {
      const b = this.inblossom[w]!;
      this.label[w] = t;
      this.label[b] = t;
      this.labelend[w] = p;
      this.labelend[b] = p;
      this.bestedge[w] = -1;
      this.bestedge[b] = -1;
      if (t === 1) {
        this.blossomLeaves(b, this.queue);
        return;
      }
      const mb = this.mate[this.blossombase[b]!]!;
      w = this.endpoint[mb]!;
      t = 1;
      p = mb ^ 1;
    }
  }

  private scanBlossom(v0: number, w0: number): number {
    let v = v0;
    let w = w0;
    const path: number[] = [];
    let base = -1;
    while (v !== -1 || w !== -1) {
      let b = this.inblossom[v]!;
      if (this.label[b]! & 4) {
        base = this.blossombase[b]!;
        break;
      }
      path.push(b);
      this.label[b] = 5;
      if (this.labelend[b] === -1) {
        v = -1;
      } else {
        v = this.endpoint[this.labelend[b]!]!;
        b = this.inblossom[v]!;
        v = this.endpoint[this.labelend[b]!]!;
      }
      if (w !== -1) {
        const t = v;
        v = w;
        w = t;
      }
    }
    for (const b of path) this.label[b] = 1;
    return base;
  }

  private addBlossom(base: number, k: number): void {
    const { endpoint, inblossom, blossomparent, labelend, label } = this;
    let v = endpoint[2 * k]!;
    let w = endpoint[2 * k + 1]!;
    const bb = inblossom[base]!;
    let bv = inblossom[v]!;
    let bw = inblossom[w]!;
    const b = this.unusedblossoms.pop()!;
    this.blossombase[b] = base;
    blossomparent[b] = -1;
    blossomparent[bb] = b;
    const path: number[] = [];
    const endps: number[] = [];
    while (bv !== bb) {
      blossomparent[bv] = b;
      path.push(bv);
      endps.push(labelend[bv]!);
      v = endpoint[labelend[bv]!]!;
      bv = inblossom[v]!;
    }
    path.push(bb);
    path.reverse();
    endps.reverse();
    endps.push(2 * k);
    while (bw !== bb) {
      blossomparent[bw] = b;
      path.push(bw);
      endps.push(labelend[bw]! ^ 1);
      w = endpoint[labelend[bw]!]!;
      bw = inblossom[w]!;
    }
    this.blossomchilds[b] = path;
    this.blossomendps[b] = endps;
    label[b] = 1;
    labelend[b] = labelend[bb]!;
    zeroAt(this.dual, b * this.L, this.L);
    for (const leaf of this.blossomLeaves(b, [])) {
      if (label[inblossom[leaf]!] === 2) this.queue.push(leaf);
      inblossom[leaf] = b;
    }
    // The least-slack edge from b to each other S-blossom, blossoms in the order first reached.
    const reached: number[] = [];
    for (const child of path) {
      const list = this.blossombestedges[child];
      if (list === null || list === undefined) {
        for (const leaf of this.blossomLeaves(child, [])) {
          for (let q = this.neighbourStart[leaf]!; q < this.neighbourStart[leaf + 1]!; q++) {
            const p = this.neighbend[q]!;
            if (this.live(p)) this.considerBestEdge(b, p >> 1, reached);
          }
        }
      } else {
        for (const edge of list) this.considerBestEdge(b, edge, reached);
      }
      this.blossombestedges[child] = null;
      this.bestedge[child] = -1;
    }
    const best: number[] = new Array(reached.length);
    let be = -1;
    for (let i = 0; i < reached.length; i++) {
      const bj = reached[i]!;
      const edge = this.bestTo[bj]!;
      best[i] = edge;
      this.bestTo[bj] = -1;
      if (be === -1 || this.slackLess(edge, be)) be = edge;
    }
    this.blossombestedges[b] = best;
    this.bestedge[b] = be;
  }

  private considerBestEdge(b: number, edge: number, reached: number[]): void {
    const { endpoint, inblossom } = this;
    let j = endpoint[2 * edge + 1]!;
    if (inblossom[j] === b) j = endpoint[2 * edge]!;
    const bj = inblossom[j]!;
    if (bj === b || this.label[bj] !== 1) return;
    const current = this.bestTo[bj]!;
    if (current === -1) reached.push(bj);
    else if (!this.slackLess(edge, current)) return;
    this.bestTo[bj] = edge;
  }

  private expandBlossom(b: number, endstage: boolean): void {
    const { endpoint, label, labelend, inblossom } = this;
    const childs = this.blossomchilds[b]!;
    for (const s of childs) {
      this.blossomparent[s] = -1;
      if (s < this.n) inblossom[s] = s;
      else if (endstage && this.dualSign(s) === 0) this.expandBlossom(s, endstage);
      else for (const leaf of this.blossomLeaves(s, [])) inblossom[leaf] = s;
    }
    if (!endstage && label[b] === 2) {
      const endps = this.blossomendps[b]!;
      const at = <T>(list: T[], index: number): T => list[index < 0 ? index + list.length : index]!;
      const entrychild = inblossom[endpoint[labelend[b]! ^ 1]!]!;
      let j = childs.indexOf(entrychild);
      let jstep: number;
      let endptrick: number;
      if (j & 1) {
        j -= childs.length;
        jstep = 1;
        endptrick = 0;
      } else {
        jstep = -1;
        endptrick = 1;
      }
      let p = labelend[b]!;
      while (j !== 0) {
        label[endpoint[p ^ 1]!] = 0;
        label[endpoint[at(endps, j - endptrick) ^ endptrick ^ 1]!] = 0;
        this.assignLabel(endpoint[p ^ 1]!, 2, p);
        this.allow(at(endps, j - endptrick) >> 1);
        j += jstep;
        p = at(endps, j - endptrick) ^ endptrick;
        this.allow(p >> 1);
        j += jstep;
      }
      let bv = at(childs, j);
      label[endpoint[p ^ 1]!] = 2;
      label[bv] = 2;
      labelend[endpoint[p ^ 1]!] = p;
      labelend[bv] = p;
      this.bestedge[bv] = -1;
      j += jstep;
      while (at(childs, j) !== entrychild) {
        bv = at(childs, j);
        if (label[bv] === 1) {
          j += jstep;
          continue;
        }
        let labelled = -1;
        for (const leaf of this.blossomLeaves(bv, [])) {
          if (label[leaf] !== 0) {
            labelled = leaf;
            break;
          }
        }
        if (labelled !== -1) {
          label[labelled] = 0;
          label[endpoint[this.mate[this.blossombase[bv]!]!]!] = 0;
          this.assignLabel(labelled, 2, labelend[labelled]!);
        }
        j += jstep;
      }
    }
    label[b] = -1;
    labelend[b] = -1;
    this.blossomchilds[b] = null;
    this.blossomendps[b] = null;
    this.blossombase[b] = -1;
    this.blossombestedges[b] = null;
    this.bestedge[b] = -1;
    zeroAt(this.dual, b * this.L, this.L);
    this.unusedblossoms.push(b);
  }

  private augmentBlossom(b: number, v: number): void {
    let t = v;
    while (this.blossomparent[t] !== b) t = this.blossomparent[t]!;
    if (t >= this.n) this.augmentBlossom(t, v);
    const childs = this.blossomchilds[b]!;
    const endps = this.blossomendps[b]!;
    const at = <T>(list: T[], index: number): T => list[index < 0 ? index + list.length : index]!;
    const i = childs.indexOf(t);
    let j = i;
    let jstep: number;
    let endptrick: number;
    if (i & 1) {
      j -= childs.length;
      jstep = 1;
      endptrick = 0;
    } else {
      jstep = -1;
      endptrick = 1;
    }
    while (j !== 0) {
      j += jstep;
      t = at(childs, j);
      const p = at(endps, j - endptrick) ^ endptrick;
      if (t >= this.n) this.augmentBlossom(t, this.endpoint[p]!);
      j += jstep;
      t = at(childs, j);
      if (t >= this.n) this.augmentBlossom(t, this.endpoint[p ^ 1]!);
      this.mate[this.endpoint[p]!] = p ^ 1;
      this.mate[this.endpoint[p ^ 1]!] = p;
    }
    this.blossomchilds[b] = childs.slice(i).concat(childs.slice(0, i));
    this.blossomendps[b] = endps.slice(i).concat(endps.slice(0, i));
    this.blossombase[b] = this.blossombase[this.blossomchilds[b]![0]!]!;
  }

  /** Flips the tree path from S-vertex s to its root; s takes remote endpoint p (-1: left free). */
  private augmentPath(s0: number, p0: number): void {
    let s = s0;
    let p = p0;
    for (;;) {
      const bs = this.inblossom[s]!;
      if (bs >= this.n) this.augmentBlossom(bs, s);
      this.mate[s] = p;
      if (this.labelend[bs] === -1) break;
      const t = this.endpoint[this.labelend[bs]!]!;
      const bt = this.inblossom[t]!;
      s = this.endpoint[this.labelend[bt]!]!;
      const j = this.endpoint[this.labelend[bt]! ^ 1]!;
      if (bt >= this.n) this.augmentBlossom(bt, j);
      this.mate[j] = this.labelend[bt]!;
      p = this.labelend[bt]! ^ 1;
    }
  }

  private allow(k: number): void {
    if (this.allowedge[k]) return;
    this.allowedge[k] = 1;
    this.allowed.push(k);
  }

  private solve(): void {
    const n = this.n;
    const { label, labelend, inblossom, endpoint, mate, bestedge, blossomparent, blossombase, nonzero, fixed } = this;
    const L = this.L;
    const dual = this.dual;
    const delta = this.delta;
    const s2 = this.s2;
    for (;;) {
      // A new stage: every free blossom whose vertices all have positive duals roots a tree.
      label.fill(0);
      labelend.fill(-1);
      bestedge.fill(-1);
      for (let b = n; b < 2 * n; b++) this.blossombestedges[b] = null;
      for (const k of this.allowed) this.allowedge[k] = 0;
      this.allowed = [];
      this.queue = [];
      let roots = 0;
      for (let v = 0; v < n; v++) {
        if (this.fixed[v] || mate[v] !== -1) continue;
        const b = inblossom[v]!;
        if (label[b] !== 0) continue;
        let lowest = v;
        if (b >= n) {
          for (const leaf of this.blossomLeaves(b, [])) {
            if (compare(dual, leaf * L, dual, lowest * L, L) < 0) lowest = leaf;
          }
        }
        if (sign(dual, lowest * L, L) > 0) {
          this.assignLabel(v, 1, -1);
          roots++;
        } else if (lowest !== v) {
          this.augmentBlossom(b, lowest);
          mate[lowest] = -1;
        }
      }
      if (roots === 0) return;

      let progressed = false;
      while (!progressed) {
        while (this.queue.length > 0 && !progressed) {
          const v = this.queue.pop()!;
          for (let q = this.neighbourStart[v]!; q < this.neighbourStart[v + 1]!; q++) {
            const p = this.neighbend[q]!;
            const k = p >> 1;
            const w = endpoint[p]!;
            if (nonzero[k] === 0 || fixed[w] === 1) continue;
            if (inblossom[v] === inblossom[w]) continue;
            if (!this.allowedge[k] && this.slackSign(k) <= 0) this.allow(k);
            if (this.allowedge[k]) {
              const bw = inblossom[w]!;
              if (label[bw] === 0) {
                if (mate[blossombase[bw]!] === -1) {
                  // A free blossom of zero dual: augment to it.
                  this.augmentPath(v, p);
                  if (bw >= n) this.augmentBlossom(bw, w);
                  mate[w] = p ^ 1;
                  progressed = true;
                  break;
                }
                this.assignLabel(w, 2, p ^ 1);
              } else if (label[bw] === 1) {
                const base = this.scanBlossom(v, w);
                if (base >= 0) this.addBlossom(base, k);
                else {
                  this.augmentPath(v, p);
                  this.augmentPath(w, p ^ 1);
                  progressed = true;
                  break;
                }
              } else if (label[w] === 0) {
                label[w] = 2;
                labelend[w] = p ^ 1;
              }
            } else if (label[inblossom[w]!] === 1) {
              const b = inblossom[v]!;
              if (bestedge[b] === -1 || this.slackLess(k, bestedge[b]!)) bestedge[b] = k;
            } else if (label[w] === 0) {
              if (bestedge[w] === -1 || this.slackLess(k, bestedge[w]!)) bestedge[w] = k;
            }
          }
        }
        if (progressed) break;

        // Dual adjustment. Type 1: an S-vertex's dual reaches zero.
        let deltatype = 1;
        let deltavertex = -1;
        for (let v = 0; v < n; v++) {
          if (label[inblossom[v]!] === 1 && (deltavertex === -1 || compare(dual, v * L, delta, 0, L) < 0)) {
            copyInto(delta, 0, dual, v * L, L);
            deltavertex = v;
          }
        }
        let deltaedge = -1;
        let deltablossom = -1;
        for (let v = 0; v < n; v++) {
          if (label[inblossom[v]!] === 0 && bestedge[v] !== -1) {
            if (this.slackCompareTo(bestedge[v]!, delta, 0) < 0) {
              this.slackInto(bestedge[v]!, delta);
              deltatype = 2;
              deltaedge = bestedge[v]!;
            }
          }
        }
        for (let b = 0; b < 2 * n; b++) {
          if (blossomparent[b] === -1 && label[b] === 1 && bestedge[b] !== -1) {
            this.slackInto(bestedge[b]!, s2);
            halveInto(s2, 0, s2, 0, L);
            if (compare(s2, 0, delta, 0, L) < 0) {
              copyInto(delta, 0, s2, 0, L);
              deltatype = 3;
              deltaedge = bestedge[b]!;
            }
          }
        }
        for (let b = n; b < 2 * n; b++) {
          if (
            blossombase[b]! >= 0 &&
            blossomparent[b] === -1 &&
            label[b] === 2 &&
            compare(dual, b * L, delta, 0, L) < 0
          ) {
            copyInto(delta, 0, dual, b * L, L);
            deltatype = 4;
            deltablossom = b;
          }
        }
        for (let v = 0; v < n; v++) {
          const l = label[inblossom[v]!];
          if (l === 1) addInto(dual, v * L, dual, v * L, delta, 0, -1, L);
          else if (l === 2) addInto(dual, v * L, dual, v * L, delta, 0, 1, L);
        }
        for (let b = n; b < 2 * n; b++) {
          if (blossombase[b]! >= 0 && blossomparent[b] === -1) {
            if (label[b] === 1) addInto(dual, b * L, dual, b * L, delta, 0, 1, L);
            else if (label[b] === 2) addInto(dual, b * L, dual, b * L, delta, 0, -1, L);
          }
        }
        if (deltatype === 1) {
          // That vertex is left free (its tree's root gets matched along the path).
          this.augmentPath(deltavertex, -1);
          progressed = true;
        } else if (deltatype === 2) {
          this.allow(deltaedge);
          let i = endpoint[2 * deltaedge]!;
          if (label[inblossom[i]!] === 0) i = endpoint[2 * deltaedge + 1]!;
          this.queue.push(i);
        } else if (deltatype === 3) {
          this.allow(deltaedge);
          this.queue.push(endpoint[2 * deltaedge]!);
        } else {
          this.expandBlossom(deltablossom, false);
        }
      }
      for (let b = n; b < 2 * n; b++) {
        if (blossomparent[b] === -1 && blossombase[b]! >= 0 && label[b] === 1 && sign(dual, b * L, L) === 0) {
          this.expandBlossom(b, true);
        }
      }
    }
  }
}
