/* SPDX-License-Identifier: BSD-3-Clause */
// The two lanes under the timeline, drawn over its window at its width (one
// column per column): the summary of the shown profiles and the depth view
// of the clicked one.
import { decodeTile, TRACE_MAX_WIDTH } from './tile.js';
import { GREY } from './palette.js';

// The summary: per time column, the shares of the contexts over the shown profiles, stacked
export async function drawSummary(v) {
  const w = Math.max(1, Math.min(v.summaryCanvas.clientWidth, 2048, v.v1 - v.v0)), H = 100;
  try {
    const s = await v.get('/api/trace/summary', { t0: v.abs(v.v0), t1: v.abs(v.v1), w, ...v.filters() }, 'summary');
    const c = v.summaryCanvas, g = c.getContext('2d');
    c.width = w; c.height = H;
    g.fillStyle = '#fff'; g.fillRect(0, 0, w, H);
    s.columns.forEach((col, x) => {
      let y = H;
      for (const [ctx, ns] of col.shares) {
        const hgt = H * ns / col.total_ns, [r, gg, b] = v.palette.rgb(ctx === -2 ? GREY : ctx);
        g.fillStyle = `rgb(${r},${gg},${b})`; g.fillRect(x, y - hgt, 1, hgt); y -= hgt;
      }
    });
    v.summaryCaption.textContent = `Summary: share of each context per time column, over the ${v.rowCount()} profiles shown`;
    v.root.dataset.summaryWidth = String(w);
  } catch (e) { if (e.name !== 'AbortError') v.status('error: ' + e.message); }
}

// The depth view: every depth of the clicked profile, one row each, over the window (a request per depth, in parallel)
export async function drawDepth(v) {
  const c = v.clicked;
  if (!c) return;
  const w = Math.max(1, Math.min(v.depthCanvas.clientWidth, TRACE_MAX_WIDTH)), rows = Math.min(v.maxDepth + 1, 24);
  const ask = (d) => v.get('/api/trace/tile', { t0: v.abs(v.v0), t1: v.abs(v.v1), w, h: 1, ...v.filters(false),
    first: c.sel, count: 1, depth: String(d) }, 'depth' + d, true);
  let tiles;
  try { tiles = (await Promise.all(Array.from({ length: rows }, (_, d) => ask(d)))).map(decodeTile); } catch (e) {
    if (e.name !== 'AbortError') v.status('error: ' + e.message);
    return;
  }
  const all = { w, h: rows, ctx: new Uint32Array(w * rows), share: new Uint8Array(w * rows), count: new Uint8Array(w * rows) };
  tiles.forEach((t, d) => { all.ctx.set(t.ctx, d * w); all.share.set(t.share, d * w); all.count.set(t.count, d * w); });
  v.paint(v.depthCanvas, all);
  const g = v.depthCanvas.getContext('2d'), x = Math.floor((c.t - v.v0) / (v.v1 - v.v0) * w);
  g.fillStyle = '#000'; g.fillRect(x, 0, 1, rows); // the click's time
  v.depthCaption.textContent = `Depth view of ${v.info.rows[c.row].id}: depth 0 at the top to ${rows - 1}; click a depth to colour the timeline at it`;
  v.root.dataset.depthRows = String(rows);
  v.root.dataset.depthProfile = String(v.info.rows[c.row].profile);
}
