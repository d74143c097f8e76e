/* SPDX-License-Identifier: BSD-3-Clause */
// A tile as the server sends it (docs/trace.md, "The viewer's routes"), what
// its cells mean at this zoom, and times as a person reads them.

// the largest tile the server draws (src/view/routes_trace.h)
export const TRACE_MAX_WIDTH = 8192, TRACE_MAX_HEIGHT = 4096;

// "HTL2": the header, the tile's scale (how its coarse rows were summed), the runs
export function decodeTile(buf) {
  const v = new DataView(buf);
  if (v.getUint32(0, true) !== 0x324c5448) throw new Error('not a tile');
  const w = v.getUint32(4, true), h = v.getUint32(8, true), runs = v.getUint32(12, true);
  const scale = { coarseRows: v.getUint32(16, true), eventsMin: Number(v.getBigUint64(32, true)),
    eventsMax: Number(v.getBigUint64(40, true)), bucketNs: Number(v.getBigUint64(48, true)) };
  const ctx = new Uint32Array(w * h), share = new Uint8Array(w * h), count = new Uint8Array(w * h);
  let at = 0;
  for (let i = 0, p = 56; i < runs; i++, p += 8) {
    const len = v.getUint16(p, true), s = v.getUint8(p + 2), n = v.getUint8(p + 3), c = v.getUint32(p + 4, true);
    if (len === 1) { ctx[at] = c; share[at] = s; count[at] = n; } // most runs of a whole-run tile: three calls saved
    else { ctx.fill(c, at, at + len); share.fill(s, at, at + len); count.fill(n, at, at + len); }
    at += len;
  }
  return { w, h, ctx, share, count, scale };
}

// What a cell means at this zoom (docs/trace.md): whole buckets of the index where rows are dense enough
export function scaleText(scale, rows) {
  if (!scale.coarseRows) return 'each cell: exact per pixel';
  const events = scale.eventsMin === scale.eventsMax ? `${scale.eventsMin}` : `${scale.eventsMin}–${scale.eventsMax}`;
  const rest = scale.coarseRows < rows ? `; ${rows - scale.coarseRows} sparser rows exact per pixel` : '';
  return `each cell: whole buckets of ${events} events (≈ ${fmtNs(scale.bucketNs)} each)${rest}`;
}

export function fmtNs(ns) {
  const a = Math.abs(ns);
  if (a >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
  if (a >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
  if (a >= 1e3) return (ns / 1e3).toFixed(3) + ' µs';
  return Math.round(ns) + ' ns';
}
