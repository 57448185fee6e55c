// Maximum-weight matching on a general graph (Edmonds' blossom algorithm with dual variables,
// O(n^3)), after Joris van Rantwijk's public-domain mwmatching. Weights are bigint: the Dutch
// system packs every criterion into one integer of several hundred bits.

/** The edges of a graph: edge k joins ends[2k] and ends[2k+1] with weight weights[k] (> 0). */
export interface WeightedEdges {
  readonly ends: Int32Array;
  readonly weights: readonly bigint[];
}

/** The mate of each vertex in a maximum-weight matching, or -1 when it stays unmatched. */
export function maxWeightMatching(vertexCount: number, graph: WeightedEdges): Int32Array {
  const n = vertexCount;
  const { ends: endpoint, weights } = graph;
  const edgeCount = weights.length;
  const mateOut = new Int32Array(n).fill(-1);
  if (edgeCount === 0) return mateOut;

  let maxWeight = 0n;
  for (const w of weights) if (w > maxWeight) maxWeight = w;

  // neighbend[v]: the remote endpoints p of the edges at v (edge p >> 1, far vertex endpoint[p]).
  const degree = new Int32Array(n);
  for (let p = 0; p < 2 * edgeCount; p++) degree[endpoint[p]!]!++;
  const neighbourStart = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) neighbourStart[v + 1] = neighbourStart[v]! + degree[v]!;
  const neighbend = new Int32Array(2 * edgeCount);
  const fill = neighbourStart.slice(0, n);
  for (let k = 0; k < edgeCount; k++) {
    const i = endpoint[2 * k]!;
    const j = endpoint[2 * k + 1]!;
    neighbend[fill[i]!++] = 2 * k + 1;
    neighbend[fill[j]!++] = 2 * k;
  }

  const mate = new Int32Array(n).fill(-1);
  const label = new Int32Array(2 * n);
  const labelend = new Int32Array(2 * n).fill(-1);
  const inblossom = new Int32Array(n);
  for (let v = 0; v < n; v++) inblossom[v] = v;
  const blossomparent = new Int32Array(2 * n).fill(-1);
  const blossomchilds: (number[] | null)[] = new Array(2 * n).fill(null);
  const blossombase = new Int32Array(2 * n).fill(-1);
  for (let v = 0; v < n; v++) blossombase[v] = v;
  const blossomendps: (number[] | null)[] = new Array(2 * n).fill(null);
  const bestedge = new Int32Array(2 * n).fill(-1);
  const blossombestedges: (number[] | null)[] = new Array(2 * n).fill(null);
  const unusedblossoms: number[] = [];
  for (let b = n; b < 2 * n; b++) unusedblossoms.push(b);
  const dualvar: bigint[] = new Array(2 * n);
  for (let v = 0; v < n; v++) dualvar[v] = maxWeight;
  for (let b = n; b < 2 * n; b++) dualvar[b] = 0n;
  const allowedge = new Uint8Array(edgeCount);
  let queue: number[] = [];

  const slack = (k: number): bigint => dualvar[endpoint[2 * k]!]! + dualvar[endpoint[2 * k + 1]!]! - 2n * weights[k]!;

  const blossomLeaves = (b: number, out: number[]): number[] => {
    if (b < n) out.push(b);
    else for (const t of blossomchilds[b]!) blossomLeaves(t, out);
    return out;
  };

  const assignLabel = (w: number, t: number, p: number): void => {
    for (;;) {
      const b = inblossom[w]!;
      label[w] = t;
      label[b] = t;
      labelend[w] = p;
      labelend[b] = p;
      bestedge[w] = -1;
      bestedge[b] = -1;
      if (t === 1) {
        blossomLeaves(b, queue);
        return;
      }
      const base = blossombase[b]!;
      const mb = mate[base]!;
      w = endpoint[mb]!;
      t = 1;
      p = mb ^ 1;
    }
  };

  const scanBlossom = (v0: number, w0: number): number => {
    let v = v0;
    let w = w0;
    const path: number[] = [];
    let base = -1;
    while (v !== -1 || w !== -1) {
      let b = inblossom[v]!;
      if (label[b]! & 4) {
        base = blossombase[b]!;
        break;
      }
      path.push(b);
      label[b] = 5;
      if (labelend[b] === -1) {
        v = -1;
      } else {
        v = endpoint[labelend[b]!]!;
        b = inblossom[v]!;
        v = endpoint[labelend[b]!]!;
      }
      if (w !== -1) {
        const t = v;
        v = w;
        w = t;
      }
    }
    for (const b of path) label[b] = 1;
    return base;
  };

  const addBlossom = (base: number, k: number): void => {
    let v = endpoint[2 * k]!;
    let w = endpoint[2 * k + 1]!;
    const bb = inblossom[base]!;
    let bv = inblossom[v]!;
    let bw = inblossom[w]!;
    const b = unusedblossoms.pop()!;
    blossombase[b] = base;
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
    blossomchilds[b] = path;
    blossomendps[b] = endps;
    label[b] = 1;
    labelend[b] = labelend[bb]!;
    dualvar[b] = 0n;
    for (const leaf of blossomLeaves(b, [])) {
      if (label[inblossom[leaf]!] === 2) queue.push(leaf);
      inblossom[leaf] = b;
    }
    const bestedgeto = new Int32Array(2 * n).fill(-1);
    const consider = (edge: number): void => {
      let j = endpoint[2 * edge + 1]!;
      if (inblossom[j] === b) j = endpoint[2 * edge]!;
      const bj = inblossom[j]!;
      if (bj !== b && label[bj] === 1 && (bestedgeto[bj] === -1 || slack(edge) < slack(bestedgeto[bj]!))) {
        bestedgeto[bj] = edge;
      }
    };
    for (const child of path) {
      const list = blossombestedges[child];
      if (list === null || list === undefined) {
        for (const leaf of blossomLeaves(child, [])) {
          for (let q = neighbourStart[leaf]!; q < neighbourStart[leaf + 1]!; q++) consider(neighbend[q]! >> 1);
        }
      } else {
        for (const edge of list) consider(edge);
      }
      blossombestedges[child] = null;
      bestedge[child] = -1;
    }
    const best: number[] = [];
    for (const edge of bestedgeto) if (edge !== -1) best.push(edge);
    blossombestedges[b] = best;
    let be = -1;
    for (const edge of best) if (be === -1 || slack(edge) < slack(be)) be = edge;
    bestedge[b] = be;
  };

  const expandBlossom = (b: number, endstage: boolean): void => {
    const childs = blossomchilds[b]!;
    for (const s of childs) {
      blossomparent[s] = -1;
      if (s < n) inblossom[s] = s;
      else if (endstage && dualvar[s] === 0n) expandBlossom(s, endstage);
      else for (const leaf of blossomLeaves(s, [])) inblossom[leaf] = s;
    }
    if (!endstage && label[b] === 2) {
      const endps = blossomendps[b]!;
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
      const at = <T>(list: T[], index: number): T => list[index < 0 ? index + list.length : index]!;
      let p = labelend[b]!;
      while (j !== 0) {
        label[endpoint[p ^ 1]!] = 0;
        label[endpoint[at(endps, j - endptrick) ^ endptrick ^ 1]!] = 0;
        assignLabel(endpoint[p ^ 1]!, 2, p);
        allowedge[at(endps, j - endptrick) >> 1] = 1;
        j += jstep;
        p = at(endps, j - endptrick) ^ endptrick;
        allowedge[p >> 1] = 1;
        j += jstep;
      }
      let bv = at(childs, j);
      label[endpoint[p ^ 1]!] = 2;
      label[bv] = 2;
      labelend[endpoint[p ^ 1]!] = p;
      labelend[bv] = p;
      bestedge[bv] = -1;
      j += jstep;
      while (at(childs, j) !== entrychild) {
        bv = at(childs, j);
        if (label[bv] === 1) {
          j += jstep;
          continue;
        }
        let labelled = -1;
        for (const leaf of blossomLeaves(bv, [])) {
          if (label[leaf] !== 0) {
            labelled = leaf;
            break;
          }
        }
        if (labelled !== -1) {
          label[labelled] = 0;
          label[endpoint[mate[blossombase[bv]!]!]!] = 0;
          assignLabel(labelled, 2, labelend[labelled]!);
        }
        j += jstep;
      }
    }
    label[b] = -1;
    labelend[b] = -1;
    blossomchilds[b] = null;
    blossomendps[b] = null;
    blossombase[b] = -1;
    blossombestedges[b] = null;
    bestedge[b] = -1;
    unusedblossoms.push(b);
  };

  const augmentBlossom = (b: number, v: number): void => {
    let t = v;
    while (blossomparent[t] !== b) t = blossomparent[t]!;
    if (t >= n) augmentBlossom(t, v);
    const childs = blossomchilds[b]!;
    const endps = blossomendps[b]!;
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
      if (t >= n) augmentBlossom(t, endpoint[p]!);
      j += jstep;
      t = at(childs, j);
      if (t >= n) augmentBlossom(t, endpoint[p ^ 1]!);
      mate[endpoint[p]!] = p ^ 1;
      mate[endpoint[p ^ 1]!] = p;
    }
    blossomchilds[b] = childs.slice(i).concat(childs.slice(0, i));
    blossomendps[b] = endps.slice(i).concat(endps.slice(0, i));
    blossombase[b] = blossombase[blossomchilds[b]![0]!]!;
  };

  const augmentMatching = (k: number): void => {
    for (const [s0, p0] of [
      [endpoint[2 * k]!, 2 * k + 1],
      [endpoint[2 * k + 1]!, 2 * k],
    ] as const) {
      let s = s0;
      let p = p0;
      for (;;) {
        const bs = inblossom[s]!;
        if (bs >= n) augmentBlossom(bs, s);
        mate[s] = p;
        if (labelend[bs] === -1) break;
        const t = endpoint[labelend[bs]!]!;
        const bt = inblossom[t]!;
        s = endpoint[labelend[bt]!]!;
        const j = endpoint[labelend[bt]! ^ 1]!;
        if (bt >= n) augmentBlossom(bt, j);
        mate[j] = labelend[bt]!;
        p = labelend[bt]! ^ 1;
      }
    }
  };

  for (let stage = 0; stage < n; stage++) {
    label.fill(0);
    bestedge.fill(-1);
    for (let b = n; b < 2 * n; b++) blossombestedges[b] = null;
    allowedge.fill(0);
    queue = [];
    for (let v = 0; v < n; v++) {
      if (mate[v] === -1 && label[inblossom[v]!] === 0) assignLabel(v, 1, -1);
    }
    let augmented = false;
    for (;;) {
      while (queue.length > 0 && !augmented) {
        const v = queue.pop()!;
        for (let q = neighbourStart[v]!; q < neighbourStart[v + 1]!; q++) {
          const p = neighbend[q]!;
          const k = p >> 1;
          const w = endpoint[p]!;
          if (inblossom[v] === inblossom[w]) continue;
          let kslack = 0n;
          if (!allowedge[k]) {
            kslack = slack(k);
            if (kslack <= 0n) allowedge[k] = 1;
          }
          if (allowedge[k]) {
            if (label[inblossom[w]!] === 0) {
              assignLabel(w, 2, p ^ 1);
            } else if (label[inblossom[w]!] === 1) {
              const base = scanBlossom(v, w);
              if (base >= 0) addBlossom(base, k);
              else {
                augmentMatching(k);
                augmented = true;
                break;
              }
            } else if (label[w] === 0) {
              label[w] = 2;
              labelend[w] = p ^ 1;
            }
          } else if (label[inblossom[w]!] === 1) {
            const b = inblossom[v]!;
            if (bestedge[b] === -1 || kslack < slack(bestedge[b]!)) bestedge[b] = k;
          } else if (label[w] === 0) {
            if (bestedge[w] === -1 || kslack < slack(bestedge[w]!)) bestedge[w] = k;
          }
        }
      }
      if (augmented) break;

      let deltatype = 1;
      let delta = dualvar[0]!;
      for (let v = 1; v < n; v++) if (dualvar[v]! < delta) delta = dualvar[v]!;
      let deltaedge = -1;
      let deltablossom = -1;
      for (let v = 0; v < n; v++) {
        if (label[inblossom[v]!] === 0 && bestedge[v] !== -1) {
          const d = slack(bestedge[v]!);
          if (d < delta) {
            delta = d;
            deltatype = 2;
            deltaedge = bestedge[v]!;
          }
        }
      }
      for (let b = 0; b < 2 * n; b++) {
        if (blossomparent[b] === -1 && label[b] === 1 && bestedge[b] !== -1) {
          const d = slack(bestedge[b]!) / 2n;
          if (d < delta) {
            delta = d;
            deltatype = 3;
            deltaedge = bestedge[b]!;
          }
        }
      }
      for (let b = n; b < 2 * n; b++) {
        if (blossombase[b]! >= 0 && blossomparent[b] === -1 && label[b] === 2 && dualvar[b]! < delta) {
          delta = dualvar[b]!;
          deltatype = 4;
          deltablossom = b;
        }
      }
      for (let v = 0; v < n; v++) {
        const l = label[inblossom[v]!];
        if (l === 1) dualvar[v] = dualvar[v]! - delta;
        else if (l === 2) dualvar[v] = dualvar[v]! + delta;
      }
      for (let b = n; b < 2 * n; b++) {
        if (blossombase[b]! >= 0 && blossomparent[b] === -1) {
          if (label[b] === 1) dualvar[b] = dualvar[b]! + delta;
          else if (label[b] === 2) dualvar[b] = dualvar[b]! - delta;
        }
      }
      if (deltatype === 1) break;
      if (deltatype === 2) {
        allowedge[deltaedge] = 1;
        let i = endpoint[2 * deltaedge]!;
        if (label[inblossom[i]!] === 0) i = endpoint[2 * deltaedge + 1]!;
        queue.push(i);
      } else if (deltatype === 3) {
        allowedge[deltaedge] = 1;
        queue.push(endpoint[2 * deltaedge]!);
      } else {
        expandBlossom(deltablossom, false);
      }
    }
    if (!augmented) break;
    for (let b = n; b < 2 * n; b++) {
      if (blossomparent[b] === -1 && blossombase[b]! >= 0 && label[b] === 1 && dualvar[b] === 0n) {
        expandBlossom(b, true);
      }
    }
  }

  for (let v = 0; v < n; v++) if (mate[v]! >= 0) mateOut[v] = endpoint[mate[v]!]!;
  return mateOut;
}
